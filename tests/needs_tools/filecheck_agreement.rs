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
    /// pfir's verdict: the newest LLVM's, unless `divergence` says why not.
    expect_pass: bool,
    /// pfir's exit status (the newest LLVM's where they agree).
    exit: Option<i32>,
    divergence: Option<String>,
    /// `; LLVM-NN: pass|fail [exit]` lines: what FileCheck-NN gave where it
    /// differs from pfir's verdict.
    versions: Vec<(u32, bool, Option<i32>)>,
}

/// The newest LLVM release whose verdicts the corpus records; pfir follows
/// it (`tests/filecheck/README.md`).
const NEWEST: u32 = 19;

/// What LLVM's FileCheck of one version is recorded to give on a case.
#[derive(Debug, PartialEq)]
enum Recorded {
    Verdict(bool, Option<i32>),
    /// The verdict changed between LLVM releases, and this one's is not
    /// recorded.
    Unknown,
}

impl Case {
    /// The feature a case exercises: the word after its number.
    fn feature(&self) -> &str {
        self.name.split('-').nth(1).unwrap_or("?")
    }

    /// The verdict FileCheck `version` gives: its own `LLVM-NN` line; else,
    /// for the newest release or when no release differs from another,
    /// pfir's verdict (the other one for a divergence); else unknown.
    fn llvm(&self, version: u32) -> Recorded {
        if let Some(&(_, pass, exit)) = self.versions.iter().find(|v| v.0 == version) {
            return Recorded::Verdict(pass, exit);
        }
        if version < NEWEST && !self.versions.is_empty() {
            return Recorded::Unknown;
        }
        match &self.divergence {
            None => Recorded::Verdict(self.expect_pass, self.exit),
            Some(_) => Recorded::Verdict(!self.expect_pass, None),
        }
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
    checks.into_iter().map(|check| parse_case(&check)).collect()
}

fn parse_verdict(check: &Path, v: &str) -> bool {
    assert!(
        v == "pass" || v == "fail",
        "{check:?}: a verdict must be pass or fail, not {v:?}"
    );
    v == "pass"
}

fn parse_case(check: &Path) -> Case {
    let text = std::fs::read_to_string(check).expect("check file");
    let header = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key))
            .map(|v| v.trim().to_string())
    };
    let expect = header("; EXPECT:").unwrap_or_else(|| panic!("{check:?}: no EXPECT"));
    let opts = header("; OPTS:")
        .map(|o| o.split_whitespace().map(String::from).collect())
        .unwrap_or_default();
    let input = check.with_extension("input");
    assert!(input.exists(), "{input:?} is missing");
    let versions = text
        .lines()
        .filter_map(|l| l.strip_prefix("; LLVM-"))
        .map(|l| {
            let (version, rest) = l
                .split_once(':')
                .unwrap_or_else(|| panic!("{check:?}: `; LLVM-NN: verdict [exit]`"));
            let mut words = rest.split_whitespace();
            let pass = parse_verdict(check, words.next().unwrap_or(""));
            let exit = words.next().map(|e| e.parse().expect("exit is a number"));
            (version.parse().expect("LLVM version"), pass, exit)
        })
        .collect();
    let case = Case {
        name: check.file_stem().unwrap().to_string_lossy().into_owned(),
        check: check.to_path_buf(),
        input,
        opts,
        env: header("; ENV:"),
        expect_pass: parse_verdict(check, &expect),
        exit: header("; EXIT:").map(|e| e.parse().expect("EXIT is a number")),
        divergence: header("; DIVERGENCE:"),
        versions,
    };
    // pfir follows the newest LLVM; only a documented divergence differs.
    if case.divergence.is_none() {
        assert_eq!(
            case.llvm(NEWEST),
            Recorded::Verdict(case.expect_pass, case.exit),
            "{check:?}: differs from LLVM {NEWEST} without a DIVERGENCE line"
        );
    }
    case
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

/// The major version a FileCheck reports (`LLVM version 19.1.7`), if it runs.
fn major_version(p: &Path) -> Option<u32> {
    let out = Command::new(p)
        .arg("--version")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    parse_major_version(&String::from_utf8_lossy(&out.stdout))
}

fn parse_major_version(text: &str) -> Option<u32> {
    let rest = &text[text.find("LLVM version ")? + "LLVM version ".len()..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// Every LLVM FileCheck found: `$FILECHECK` alone when set; else `FileCheck`
/// and `FileCheck-NN` on PATH and in the bindir that `llvm-config` /
/// `llvm-config-NN` report, one per LLVM version, newest first.
pub(super) fn llvm_filechecks() -> Vec<(u32, PathBuf)> {
    if let Some(p) = std::env::var_os("FILECHECK") {
        let p = PathBuf::from(p);
        return major_version(&p).map(|v| (v, p)).into_iter().collect();
    }
    let versions: Vec<String> = std::iter::once(String::new())
        .chain((7..=30).rev().map(|v| format!("-{v}")))
        .collect();
    let mut candidates = Vec::new();
    let path = std::env::var_os("PATH").unwrap_or_default();
    for v in &versions {
        for dir in std::env::split_paths(&path) {
            candidates.push(dir.join(format!("FileCheck{v}")));
        }
        if let Ok(out) = Command::new(format!("llvm-config{v}"))
            .arg("--bindir")
            .stderr(Stdio::null())
            .output()
            && out.status.success()
        {
            let dir = String::from_utf8_lossy(&out.stdout).trim().to_string();
            candidates.push(Path::new(&dir).join("FileCheck"));
        }
    }
    let mut found: Vec<(u32, PathBuf)> = Vec::new();
    for p in candidates {
        if p.is_file()
            && let Some(v) = major_version(&p)
            && !found.iter().any(|f| f.0 == v)
        {
            found.push((v, p));
        }
    }
    found.sort_by_key(|f| std::cmp::Reverse(f.0));
    found
}

fn corpus_is_large_enough() {
    assert!(corpus().len() >= 300, "the corpus needs at least 300 pairs");
}

fn versions_are_read_from_filecheck_output() {
    let text = "LLVM (http://llvm.org/):\n  LLVM version 19.1.7\n  Optimized build.\n";
    assert_eq!(parse_major_version(text), Some(19));
    assert_eq!(
        parse_major_version("Debian LLVM version 14.0.6\n"),
        Some(14)
    );
    assert_eq!(parse_major_version("FileCheck 2.0\n"), None);
}

fn recorded_verdicts_by_version() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/filecheck/cases");
    // Same in every release: pfir's verdict.
    let same = parse_case(&dir.join("001-plain-pass.check"));
    assert_eq!(same.llvm(14), Recorded::Verdict(true, None));
    // Changed in LLVM 15: 14's line, the newest's = pfir's; unknown between.
    let changed = parse_case(&dir.join("123-opts-bool-twice.check"));
    assert_eq!(changed.llvm(14), Recorded::Verdict(false, Some(1)));
    assert_eq!(changed.llvm(19), Recorded::Verdict(true, Some(0)));
    assert_eq!(changed.llvm(16), Recorded::Unknown);
    // A divergence: LLVM gives the other verdict (no case of the corpus
    // has one now, so a case is written here).
    let tmp = std::env::temp_dir().join(format!("pfir-divergence-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temp dir");
    std::fs::write(
        tmp.join("d.check"),
        "; EXPECT: pass\n; DIVERGENCE: a reason\nCHECK: a\n",
    )
    .expect("write");
    std::fs::write(tmp.join("d.input"), "a\n").expect("write");
    let divergent = parse_case(&tmp.join("d.check"));
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(divergent.expect_pass);
    assert_eq!(divergent.divergence.as_deref(), Some("a reason"));
    assert_eq!(divergent.llvm(19), Recorded::Verdict(false, None));
}

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
            wrong.push(format!("{} (exit {code:?}, recorded {want})", case.name));
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

/// Runs every installed LLVM FileCheck over the corpus: each must give the
/// verdict recorded for its version (a version newer than [`NEWEST`] is
/// compared with the newest's, and differences are printed, not failed: no
/// one has recorded them yet); pfir's agreement with each is reported.
fn agreement_with_llvm_filecheck() -> Option<String> {
    let found = llvm_filechecks();
    if found.is_empty() {
        return Some("no LLVM FileCheck found (PATH, llvm-config); agreement not measured".into());
    }
    let cases = corpus();
    let ours: Vec<bool> = cases
        .iter()
        .map(|c| status(&pfir(), Some("filecheck"), c) == Some(0))
        .collect();
    let mut failures = Vec::new();
    for (version, llvm) in &found {
        let (mut agree, mut unrecorded, mut newer) = (0, Vec::new(), Vec::new());
        let mut disagree = Vec::new();
        // Per feature: (compared, agreeing).
        let mut by_feature: std::collections::BTreeMap<&str, (usize, usize)> = Default::default();
        for (case, &ours) in cases.iter().zip(&ours) {
            let code = status(llvm, None, case);
            let theirs = code == Some(0);
            let f = by_feature.entry(case.feature()).or_default();
            f.0 += 1;
            f.1 += usize::from(ours == theirs);
            agree += usize::from(ours == theirs);
            if ours != theirs {
                let why = match (&case.divergence, case.llvm(*version)) {
                    (Some(why), _) => why.clone(),
                    (None, _) if *version < NEWEST => format!("changed after LLVM {version}"),
                    (None, _) => "not recorded".into(),
                };
                disagree.push(format!(
                    "{} (pfir {}, LLVM {version} {}): {why}",
                    case.name,
                    verdict(ours),
                    verdict(theirs)
                ));
            }
            let recorded = case.llvm((*version).min(NEWEST));
            let Recorded::Verdict(pass, exit) = recorded else {
                unrecorded.push(format!("{} ({})", case.name, verdict(theirs)));
                continue;
            };
            if pass != theirs || exit.is_some_and(|e| Some(e) != code) {
                let line = format!(
                    "{}: recorded for LLVM {}: {} (exit {exit:?}); {} {} (exit {code:?})",
                    case.name,
                    (*version).min(NEWEST),
                    verdict(pass),
                    llvm.display(),
                    verdict(theirs)
                );
                if *version > NEWEST {
                    newer.push(line);
                } else {
                    failures.push(line);
                }
            }
        }
        println!(
            "{} (LLVM {version}): pfir agrees on {agree} of {} pairs",
            llvm.display(),
            cases.len(),
        );
        for (feature, (n, agree)) in &by_feature {
            println!("  {feature:<12} {agree:>3} of {n:>3} agree");
        }
        for d in &disagree {
            println!("  differs: {d}");
        }
        for u in &unrecorded {
            println!("  verdict not recorded for LLVM {version}: {u}");
        }
        for n in &newer {
            println!("  newer than the recorded LLVM {NEWEST}: {n}");
        }
    }
    assert!(
        failures.is_empty(),
        "LLVM's verdicts differ from those recorded:\n{}",
        failures.join("\n")
    );
    None
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

fn dump_input_filter_and_context_choose_the_lines_shown() {
    let input: String = (1..=30).map(|i| format!("line{i}\n")).collect();
    let check = "CHECK: line20\nCHECK-NEXT: nothere\n";
    let (code, err) = pfir_run(check, &input, &["-dump-input-context=1"], None);
    assert_eq!(code, 1);
    // The error starts on line 20 (where the search for line 21 began)
    // and its "possible intended match" is on line 21, so (as in LLVM 19)
    // lines 19 to 22 are shown.
    assert!(
        err.contains("19: line19") && err.contains("22: line22"),
        "{err}"
    );
    assert!(
        !err.contains("18: line18") && !err.contains("23: line23"),
        "{err}"
    );
    assert!(!err.contains(" 1: line1 \n"), "{err}");
    let (_, err) = pfir_run(check, &input, &["-dump-input-filter=all"], None);
    assert!(
        err.contains(" 1: line1 \n") && err.contains("30: line30"),
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
    // annotation: lines where any annotation starts (with -v, as in LLVM,
    // the matches on lines 3 and 20 are annotations too).
    let (_, err) = pfir_run(
        "CHECK: line3\nCHECK: line20\nCHECK-NEXT: nothere\n",
        &input,
        &[
            "-dump-input-filter=annotation",
            "-dump-input-context=0",
            "-v",
        ],
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

fn color_option_colours_the_report() {
    let (code, err) = pfir_run("CHECK: b\n", "a\n", &["-color", "-dump-input=never"], None);
    assert_eq!(code, 1);
    assert!(err.contains("\u{1b}["), "{err}");
    let (_, err) = pfir_run("CHECK: b\n", "a\n", &["--color=false"], None);
    assert!(!err.contains("\u{1b}["), "{err}");
}

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

/// The module's tests; the comparison with LLVM is ignored where no LLVM
/// FileCheck is installed.
pub fn trials() -> Vec<libtest_mimic::Trial> {
    vec![
        super::plain(
            "filecheck_agreement::corpus_is_large_enough",
            corpus_is_large_enough,
        ),
        super::plain(
            "filecheck_agreement::versions_are_read_from_filecheck_output",
            versions_are_read_from_filecheck_output,
        ),
        super::plain(
            "filecheck_agreement::recorded_verdicts_by_version",
            recorded_verdicts_by_version,
        ),
        super::plain(
            "filecheck_agreement::pfir_verdicts_match_recorded_expectations",
            pfir_verdicts_match_recorded_expectations,
        ),
        super::plain(
            "filecheck_agreement::dump_input_filter_and_context_choose_the_lines_shown",
            dump_input_filter_and_context_choose_the_lines_shown,
        ),
        super::plain(
            "filecheck_agreement::color_option_colours_the_report",
            color_option_colours_the_report,
        ),
        super::plain(
            "filecheck_agreement::exit_statuses_follow_llvm",
            exit_statuses_follow_llvm,
        ),
        super::needs_tool(
            "filecheck_agreement::agreement_with_llvm_filecheck",
            agreement_with_llvm_filecheck,
        ),
    ]
}
