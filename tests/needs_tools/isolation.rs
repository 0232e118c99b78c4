//! Test stages isolated (issue 32): every repro of a stage sharing the
//! runner's streams, and a differential suite of RUN-line semantics, run
//! three ways with the same verdicts: `pfir test` (pfir's commands
//! in-process), `pfir test --no-in-process` (every stage a process) and
//! LLVM's lit with LLVM's FileCheck and `not` (reported as ignored, with
//! the reason, where lit or they are missing).
//!
//! Every case is a `.pfir` test whose RUN lines pass exactly when the
//! semantics hold (streams named by path are the stage's own; redirections
//! apply left to right; `cd`; `not --crash`; ...). The runner itself is
//! given a standard input holding invalid pfir (`func stolen(`): a stage
//! that reads the runner's stdin instead of its own fails.

use super::{Trial, needs_tool, plain};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const PFIR: &str = env!("CARGO_BIN_EXE_pfir");

/// What the runners get on their standard input: a stage must never see it.
const RUNNER_STDIN: &[u8] = b"func stolen(\n";

/// A kernel and an orchestration function: valid pfir, for `< %s`.
const MODULE: &str = "\nfunc kernel() -> task_id {\n  return system.task_invalid()\n}\n";

/// One test file: its name, text and the verdict every runner must give.
struct Case {
    name: String,
    text: String,
    verdict: &'static str,
}

fn case(name: &str, run_and_checks: &str, verdict: &'static str) -> Case {
    Case {
        name: format!("{name}.pfir"),
        text: format!("{run_and_checks}{MODULE}"),
        verdict,
    }
}

/// The repros of the first item: paths that name a process's
/// streams mean the stage's own.
fn stream_repros() -> Vec<Case> {
    vec![
        case(
            "opt_dev_stdin",
            "// RUN: pfir opt /dev/stdin | FileCheck %s --allow-empty\n// CHECK-NOT: {{s}}tolen\n",
            "PASS",
        ),
        case(
            "filecheck_input_dev_stdin",
            "// RUN: FileCheck %s --input-file=/dev/stdin --allow-empty\n// CHECK-NOT: {{s}}tolen\n",
            "PASS",
        ),
        case(
            "fmt_dev_stdin_from_file",
            "// RUN: pfir fmt /dev/stdin < %s | FileCheck %s\n// CHECK: func kernel\n// CHECK-NOT: {{s}}tolen\n",
            "PASS",
        ),
        case(
            "opt_dev_fd_0_from_file",
            "// RUN: pfir opt /dev/fd/0 < %s | FileCheck %s\n// CHECK: func kernel\n// CHECK-NOT: {{s}}tolen\n",
            "PASS",
        ),
        case(
            "check_dev_stdin_from_file",
            "// RUN: pfir check /dev/stdin < %s\n",
            "PASS",
        ),
        case(
            "opt_proc_self_fd_0_from_file",
            "// RUN: pfir opt /proc/self/fd/0 < %s | FileCheck %s\n// CHECK: func kernel\n",
            "PASS",
        ),
        case(
            "opt_o_dev_stdout",
            "// RUN: pfir opt %s -o /dev/stdout | FileCheck %s\n// CHECK: func kernel\n",
            "PASS",
        ),
        case(
            "opt_o_dev_stderr",
            "// RUN: pfir opt %s -o /dev/stderr 2>&1 | FileCheck %s\n// CHECK: func kernel\n",
            "PASS",
        ),
        case(
            "opt_o_dev_fd_1",
            "// RUN: pfir opt %s -o /dev/fd/1 | FileCheck %s\n// CHECK: func kernel\n",
            "PASS",
        ),
    ]
}

/// A stage's output streams, in sh's terms: where fd 1 and fd 2 point.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Place {
    Pipe,
    Capture,
    /// One of the files, by its letter.
    File(char),
}

/// The redirections of the differential: each applies left to right.
const REDIRECTIONS: [&str; 5] = ["2>&1", "> %t.f", ">> %t.a", "2> %t.e", "&> %t.b"];

/// Where `pfir opt %s --stats` sends each stream after `redirs`, as sh
/// and lit's internal shell have it.
fn places(redirs: &[&str]) -> (Place, Place) {
    let (mut out, mut err) = (Place::Pipe, Place::Capture);
    for r in redirs {
        match *r {
            "2>&1" => err = out,
            "> %t.f" => out = Place::File('f'),
            ">> %t.a" => out = Place::File('a'),
            "2> %t.e" => err = Place::File('e'),
            "&> %t.b" => (out, err) = (Place::File('b'), Place::File('b')),
            other => unreachable!("{other}"),
        }
    }
    (out, err)
}

/// What `pfir opt %s --stats` writes: its statistics on standard error,
/// then the module on standard output (one line of each to check for).
const ERR_LINE: &str = "Pass statistics report";
const OUT_LINE: &str = "func kernel";

/// FileCheck lines (prefix `p`) that pass exactly when the lines of
/// `present` appear in that order and those of `absent` nowhere.
fn exactly(p: &str, present: &[&str], absent: &[&str]) -> String {
    let mut text = String::new();
    let nots = |text: &mut String| {
        for a in absent {
            text.push_str(&format!("// {p}-NOT: {a}\n"));
        }
    };
    for line in present {
        nots(&mut text);
        text.push_str(&format!("// {p}: {line}\n"));
    }
    nots(&mut text);
    text
}

/// The redirection cases: every order of one to three different
/// redirections, each stream's content checked where it must land.
fn redirection_cases() -> Vec<Case> {
    let mut sequences: Vec<Vec<&str>> = Vec::new();
    for a in REDIRECTIONS {
        sequences.push(vec![a]);
        for b in REDIRECTIONS.iter().filter(|b| **b != a) {
            sequences.push(vec![a, b]);
            for c in REDIRECTIONS.iter().filter(|c| **c != a && *c != b) {
                sequences.push(vec![a, b, c]);
            }
        }
    }
    sequences
        .into_iter()
        .enumerate()
        .map(|(i, redirs)| {
            let (out, err) = places(&redirs);
            // Standard error is written first, then standard output.
            let content = |place: Place| -> (Vec<&str>, Vec<&str>) {
                let (mut present, mut absent) = (Vec::new(), Vec::new());
                for (stream, line) in [(err, ERR_LINE), (out, OUT_LINE)] {
                    if stream == place {
                        present.push(line);
                    } else {
                        absent.push(line);
                    }
                }
                (present, absent)
            };
            let mut text = format!(
                "// RUN: pfir opt %s --stats {} | FileCheck %s --check-prefix=P --allow-empty\n",
                redirs.join(" ")
            );
            let (present, absent) = content(Place::Pipe);
            let mut checks = exactly("P", &present, &absent);
            for f in ['f', 'a', 'e', 'b'] {
                if out == Place::File(f) || err == Place::File(f) {
                    let upper = f.to_ascii_uppercase();
                    text.push_str(&format!(
                        "// RUN: FileCheck %s --check-prefix={upper} --allow-empty --input-file=%t.{f}\n"
                    ));
                    let (present, absent) = content(Place::File(f));
                    checks.push_str(&exactly(&upper.to_string(), &present, &absent));
                }
            }
            case(&format!("redirect_{i:03}"), &(text + &checks), "PASS")
        })
        .collect()
}

/// The other RUN-line semantics: pipes, `&&`, `not`, `not --crash`,
/// `env`, `cd`, `%s`/`%S`/`%t`, `DEFINE:`, `REQUIRES:`/`XFAIL:`, FileCheck
/// options.
fn semantics_cases() -> Vec<Case> {
    let c = case;
    vec![
        c(
            "pipe_pass",
            "// RUN: pfir opt %s | FileCheck %s\n// CHECK: func kernel\n",
            "PASS",
        ),
        c(
            "pipe_fail",
            "// RUN: pfir opt %s | FileCheck %s\n// CHECK: func nothing\n",
            "FAIL",
        ),
        c(
            "pipefail",
            "// RUN: false | FileCheck %s --allow-empty\n// CHECK-NOT: x\n",
            "FAIL",
        ),
        c(
            "three_stages",
            "// RUN: pfir opt %s | pfir fmt - | FileCheck %s\n// CHECK: func kernel\n",
            "PASS",
        ),
        c("and_and_pass", "// RUN: true && pfir check %s\n", "PASS"),
        c("and_and_fail", "// RUN: false && true\n", "FAIL"),
        c("not_false", "// RUN: not false\n", "PASS"),
        c("not_true", "// RUN: not true\n", "FAIL"),
        c("not_not", "// RUN: not not true\n", "PASS"),
        c(
            "not_pfir_error",
            "// RUN: not pfir check %s.missing\n",
            "PASS",
        ),
        c(
            "not_crash_signal",
            "// RUN: not --crash sh -c 'kill -SEGV $$'\n",
            "PASS",
        ),
        c("not_crash_no_crash", "// RUN: not --crash false\n", "FAIL"),
        c("not_crash_success", "// RUN: not --crash true\n", "FAIL"),
        c(
            "crash_never_passes_not",
            "// RUN: not sh -c 'kill -SEGV $$'\n",
            "FAIL",
        ),
        c(
            "env_var",
            "// RUN: env PFIR_X=hello sh -c 'echo $PFIR_X' | FileCheck %s\n// CHECK: hello\n",
            "PASS",
        ),
        c(
            "env_two_vars",
            "// RUN: env A=1 B=2 sh -c 'echo $A$B' | FileCheck %s\n// CHECK: 12\n",
            "PASS",
        ),
        c(
            "env_unset",
            "// RUN: env -u HOME sh -c 'echo x${HOME}x' | FileCheck %s\n// CHECK: xx\n",
            "PASS",
        ),
        c(
            "cd_then_relative",
            "// RUN: cd %S && pfir check %{base}\n",
            "PASS",
        ),
        c(
            "cd_persists",
            "// RUN: cd %S\n// RUN: pfir check %{base}\n",
            "PASS",
        ),
        c(
            "cd_redirect_relative",
            "// RUN: mkdir -p %t.d\n// RUN: cd %t.d && echo hi > rel.txt\n// RUN: FileCheck %s --input-file=%t.d/rel.txt\n// CHECK: hi\n",
            "PASS",
        ),
        c(
            "cd_missing_dir",
            "// RUN: cd %S/no-such-dir && true\n",
            "FAIL",
        ),
        c("subst_s", "// RUN: pfir check %s\n", "PASS"),
        c("subst_big_s_dir", "// RUN: pfir check %S/%{base}\n", "PASS"),
        c(
            "subst_t_write_read",
            "// RUN: pfir opt %s -o %t\n// RUN: FileCheck %s --input-file=%t\n// CHECK: func kernel\n",
            "PASS",
        ),
        c(
            "subst_t_redirect",
            "// RUN: pfir opt %s > %t\n// RUN: pfir check %t\n",
            "PASS",
        ),
        c(
            "subst_t_stdin",
            "// RUN: pfir opt %s > %t\n// RUN: pfir opt - < %t | FileCheck %s\n// CHECK: func kernel\n",
            "PASS",
        ),
        c(
            "define",
            "// DEFINE: %{opt} = pfir opt %s\n// RUN: %{opt} | FileCheck %s\n// CHECK: func kernel\n",
            "PASS",
        ),
        c(
            "redefine",
            "// DEFINE: %{cmd} = true\n// REDEFINE: %{cmd} = false\n// RUN: %{cmd}\n",
            "FAIL",
        ),
        c(
            "requires_missing",
            "// REQUIRES: no-such-feature\n// RUN: false\n",
            "UNSUPPORTED",
        ),
        c("xfail_fails", "// XFAIL: *\n// RUN: false\n", "XFAIL"),
        c("xfail_passes", "// XFAIL: *\n// RUN: true\n", "XPASS"),
        c(
            "fc_check_prefix",
            "// RUN: pfir opt %s | FileCheck %s --check-prefix=K\n// K: func kernel\n",
            "PASS",
        ),
        c(
            "fc_check_prefixes",
            "// RUN: pfir opt %s | FileCheck %s --check-prefixes=A,B\n// A: func kernel\n// B: return\n",
            "PASS",
        ),
        c(
            "fc_implicit_check_not",
            "// RUN: pfir opt %s | FileCheck %s --implicit-check-not=orchestration\n// CHECK: func kernel\n",
            "PASS",
        ),
        c(
            "fc_implicit_check_not_fails",
            "// RUN: pfir opt %s | FileCheck %s --implicit-check-not=task_invalid\n// CHECK: func kernel\n",
            "FAIL",
        ),
        c(
            "fc_match_full_lines",
            "// RUN: pfir opt %s | FileCheck %s --match-full-lines\n// CHECK: func kernel() -> task_id {\n",
            "PASS",
        ),
        c(
            "fc_match_full_lines_fails",
            "// RUN: pfir opt %s | FileCheck %s --match-full-lines\n// CHECK: func kernel\n",
            "FAIL",
        ),
        c(
            "fc_strict_whitespace",
            "// RUN: pfir opt %s | FileCheck %s --strict-whitespace\n// CHECK: {{^}}  return\n",
            "PASS",
        ),
        c(
            "fc_dump_input_never",
            "// RUN: pfir opt %s | FileCheck %s --dump-input=never\n// CHECK: func kernel\n",
            "PASS",
        ),
        c(
            "fc_allow_empty",
            "// RUN: true | FileCheck %s --allow-empty\n// CHECK-NOT: x\n",
            "PASS",
        ),
        c(
            "fc_empty_input_fails",
            "// RUN: true | FileCheck %s\n// CHECK-NOT: x\n",
            "FAIL",
        ),
        c(
            "fc_not_input_file",
            "// RUN: pfir opt %s -o %t\n// RUN: not FileCheck %s --input-file=%t\n// CHECK: func nothing\n",
            "PASS",
        ),
        c(
            "dev_null_input",
            "// RUN: pfir opt /dev/null | FileCheck %s --allow-empty\n// CHECK-NOT: func\n",
            "PASS",
        ),
        c(
            "dev_null_output",
            "// RUN: pfir opt %s -o /dev/null | FileCheck %s --allow-empty\n// CHECK-NOT: func\n",
            "PASS",
        ),
        c(
            "stdout_to_dev_null",
            "// RUN: pfir opt %s > /dev/null\n",
            "PASS",
        ),
        c(
            "stderr_of_failure_to_pipe",
            "// RUN: not pfir check %s.missing 2>&1 | FileCheck %s\n// CHECK: error\n",
            "PASS",
        ),
        c(
            "stderr_of_failure_not_piped",
            "// RUN: not pfir check %s.missing | FileCheck %s --allow-empty\n// CHECK-NOT: error\n",
            "PASS",
        ),
        c(
            "append_twice",
            "// RUN: echo one > %t\n// RUN: echo two >> %t\n// RUN: FileCheck %s --input-file=%t\n// CHECK: one\n// CHECK-NEXT: two\n",
            "PASS",
        ),
        c(
            "last_output_redirect_wins",
            "// RUN: echo x > %t.a > %t.b\n// RUN: FileCheck %s --input-file=%t.b\n// CHECK: x\n",
            "PASS",
        ),
    ]
}

/// Every case of the differential suite (at least 100).
fn differential_cases() -> Vec<Case> {
    let mut cases = redirection_cases();
    cases.extend(semantics_cases());
    cases.extend(stream_repros());
    cases
}

/// `cases` written to a new temporary directory (with `%{base}`, the
/// file's own name, substituted).
fn write_cases(cases: &[Case]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for c in cases {
        let text = c.text.replace("%{base}", &c.name);
        std::fs::write(dir.path().join(&c.name), text).unwrap();
    }
    dir
}

/// The verdict per test file name in a runner's output: lines
/// `WORD: ... NAME ...`.
fn verdicts(output: &str, cases: &[Case]) -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    for line in output.lines() {
        let Some((word, rest)) = line.split_once(": ") else {
            continue;
        };
        if !["PASS", "FAIL", "XFAIL", "XPASS", "UNSUPPORTED"].contains(&word) {
            continue;
        }
        for c in cases {
            let name = &c.name;
            let named = rest.split([' ', '/']).any(|part| part == name);
            if named {
                found.insert(name.clone(), word.to_string());
            }
        }
    }
    found
}

/// Panics with every case whose verdict is not the expected one.
fn assert_verdicts(way: &str, got: &BTreeMap<String, String>, cases: &[Case], output: &str) {
    let wrong: Vec<String> = cases
        .iter()
        .filter(|c| got.get(&c.name).map(String::as_str) != Some(c.verdict))
        .map(|c| {
            format!(
                "{}: expected {}, got {:?}",
                c.name,
                c.verdict,
                got.get(&c.name)
            )
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "{way}: {} of {} verdicts differ:\n{}\n--- output ---\n{output}",
        wrong.len(),
        cases.len(),
        wrong.join("\n")
    );
}

/// Runs `program args` with [`RUNNER_STDIN`] on its standard input; its
/// standard output.
fn run_with_runner_stdin(mut command: Command) -> String {
    use std::io::Write;
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starting the runner");
    let mut stdin = child.stdin.take().unwrap();
    // A runner that never reads its stdin may close it first.
    let _ = stdin.write_all(RUNNER_STDIN);
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

/// `pfir test` (with `extra` arguments) on `cases`: checks every verdict.
fn pfir_test_way(cases: &[Case], extra: &[&str], way: &str) {
    let dir = write_cases(cases);
    let mut command = Command::new(PFIR);
    command.arg("test").arg("-v").args(extra).arg(dir.path());
    let output = run_with_runner_stdin(command);
    assert_verdicts(way, &verdicts(&output, cases), cases, &output);
}

/// Each stream repro alone in a run of `runner` (so that no other test
/// has consumed the runner's stdin first): every one must pass. (Under
/// lit they run in the differential, where lit never reads its stdin.)
fn each_repro_alone(way: &str, runner: impl Fn(&Path) -> Command) {
    let cases = stream_repros();
    let dir = write_cases(&cases);
    let mut got = BTreeMap::new();
    let mut outputs = String::new();
    for c in &cases {
        let output = run_with_runner_stdin(runner(&dir.path().join(&c.name)));
        got.extend(verdicts(&output, std::slice::from_ref(c)));
        outputs.push_str(&output);
    }
    assert_verdicts(way, &got, &cases, &outputs);
}

/// LLVM's lit and the tools it runs these cases with: a directory holding
/// `pfir`, `FileCheck` and `not`; or why they are missing.
fn lit_tools() -> Result<(PathBuf, tempfile::TempDir), String> {
    let lit = which("lit").ok_or("LLVM's `lit` is not installed (`pip install lit`)")?;
    let (_, filecheck) = super::filecheck_agreement::llvm_filechecks()
        .into_iter()
        .next()
        .ok_or("LLVM's FileCheck is not installed (e.g. Debian's llvm-19-tools)")?;
    let real = std::fs::canonicalize(&filecheck).map_err(|e| e.to_string())?;
    let not = real
        .parent()
        .map(|d| d.join("not"))
        .filter(|n| n.is_file())
        .ok_or("LLVM's `not` is not installed beside its FileCheck")?;
    let bin = tempfile::tempdir().unwrap();
    let link = |from: &Path, name: &str| std::os::unix::fs::symlink(from, bin.path().join(name));
    link(Path::new(PFIR), "pfir").unwrap();
    link(&real, "FileCheck").unwrap();
    link(&not, "not").unwrap();
    Ok((lit, bin))
}

fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// lit's configuration for the cases in `dir`, with the tools of `bin`.
fn write_lit_cfg(dir: &Path, bin: &Path) {
    let cfg = format!(
        "import lit.formats, os\n\
         config.name = 'pfir-isolation'\n\
         config.test_format = lit.formats.ShTest(execute_external=False)\n\
         config.suffixes = ['.pfir']\n\
         config.environment['PATH'] = {:?} + os.pathsep + os.environ.get('PATH', '')\n",
        bin.display().to_string()
    );
    std::fs::write(dir.join("lit.cfg"), cfg).unwrap();
}

/// lit on `cases`; `Some(why)` when it cannot run here.
fn lit_way(cases: &[Case]) -> Option<String> {
    let (lit, bin) = match lit_tools() {
        Ok(t) => t,
        Err(why) => return Some(why),
    };
    let dir = write_cases(cases);
    write_lit_cfg(dir.path(), bin.path());
    let mut command = Command::new(lit);
    command.arg("-v").arg(dir.path());
    let output = run_with_runner_stdin(command);
    assert_verdicts("lit", &verdicts(&output, cases), cases, &output);
    None
}

/// `pfir test >> log`, and `pfir opt -o /dev/stdout >> log`, append to the
/// log; `pfir opt -o /dev/stdout | cat` writes to the pipe.
fn output_streams_append(extra: &[&str]) {
    let dir = write_cases(&stream_repros());
    let log = dir.path().join("log.txt");
    std::fs::write(&log, "EARLIER\n").unwrap();
    let test = dir.path().join("opt_o_dev_stdout.pfir");
    let args: Vec<String> = extra.iter().map(|a| format!("'{a}'")).collect();
    let script = format!(
        "\"$0\" test {} \"$1\" >> \"$2\"; \"$0\" opt \"$1\" -o /dev/stdout >> \"$2\"; \
         \"$0\" opt \"$1\" -o /dev/fd/3 3>> \"$2\"",
        args.join(" ")
    );
    let status = Command::new("sh")
        .args(["-c", &script, PFIR])
        .arg(&test)
        .arg(&log)
        .status()
        .unwrap();
    assert!(status.success());
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(
        text.starts_with("EARLIER\n"),
        "the log was replaced:\n{text}"
    );
    assert!(text.contains("Passed"), "the report is missing:\n{text}");
    assert_eq!(text.matches("func kernel").count(), 2, "{text}");
    let piped = Command::new("sh")
        .args(["-c", "\"$0\" opt \"$1\" -o /dev/stdout | cat", PFIR])
        .arg(&test)
        .output()
        .unwrap();
    assert!(
        piped.status.success(),
        "{}",
        String::from_utf8_lossy(&piped.stderr)
    );
    assert!(String::from_utf8_lossy(&piped.stdout).contains("func kernel"));
}

/// The second item: `pfir test -j 1 --timeout 0.3` on tests that
/// read `/dev/zero` with the input limit lifted: each is reported timed
/// out, and the runner's memory stays small (the reading stage is killed).
fn timed_out_stages_stop(extra: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..3 {
        std::fs::write(
            dir.path().join(format!("zero{i}.pfir")),
            "// RUN: pfir opt /dev/zero --input-size-limit=100000000000 | FileCheck %s\n// CHECK: x\n",
        )
        .unwrap();
    }
    let mut child = Command::new(PFIR)
        .args(["test", "-j", "1", "--timeout", "0.3"])
        .args(extra)
        .arg(dir.path())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let status = format!("/proc/{}/status", child.id());
    let mut peak_kib = 0u64;
    while child.try_wait().unwrap().is_none() {
        if let Ok(text) = std::fs::read_to_string(&status)
            && let Some(kib) = text
                .lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        {
            peak_kib = peak_kib.max(kib);
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.matches("timed out").count() >= 3, "{text}");
    assert!(
        peak_kib < 100 << 10,
        "the runner grew to {peak_kib} KiB: a timed-out stage kept reading"
    );
}

pub fn trials() -> Vec<Trial> {
    let mut trials = vec![
        plain("isolation::differential_in_process", || {
            pfir_test_way(&differential_cases(), &[], "in-process")
        }),
        plain("isolation::differential_no_in_process", || {
            pfir_test_way(
                &differential_cases(),
                &["--no-in-process"],
                "--no-in-process",
            )
        }),
        needs_tool("isolation::differential_lit", || {
            lit_way(&differential_cases())
        }),
        plain("isolation::differential_has_100_cases", || {
            let cases = differential_cases();
            assert!(cases.len() >= 100, "{} cases", cases.len());
            let mut names: Vec<&String> = cases.iter().map(|c| &c.name).collect();
            names.dedup();
            assert_eq!(names.len(), cases.len());
        }),
        plain("isolation::each_stream_repro_alone_in_process", || {
            each_repro_alone("in-process", |test| {
                let mut c = Command::new(PFIR);
                c.args(["test", "-v"]).arg(test);
                c
            })
        }),
        plain("isolation::each_stream_repro_alone_no_in_process", || {
            each_repro_alone("--no-in-process", |test| {
                let mut c = Command::new(PFIR);
                c.args(["test", "-v", "--no-in-process"]).arg(test);
                c
            })
        }),
        plain("isolation::output_streams_append_in_process", || {
            output_streams_append(&[])
        }),
        plain("isolation::output_streams_append_no_in_process", || {
            output_streams_append(&["--no-in-process"])
        }),
    ];
    for (name, extra) in [
        ("isolation::timed_out_stages_stop_in_process", &[][..]),
        (
            "isolation::timed_out_stages_stop_no_in_process",
            &["--no-in-process"][..],
        ),
    ] {
        trials.push(needs_tool(name, move || {
            if !Path::new("/proc/self/status").exists() {
                return Some("needs /proc to measure the runner's memory".into());
            }
            timed_out_stages_stop(extra);
            None
        }));
    }
    trials
}
