//! `pfir test` under attack and under load: private scratch directories,
//! `--update` that never breaks a passing test, process groups killed on
//! timeout and on signals, captured output bounded, discovery through
//! symlink loops and unreadable directories. Each case works in a
//! temporary directory.

#![cfg(unix)]

use crate::support::{eventually, kill_quietly, process_ended};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const PFIR: &str = env!("CARGO_BIN_EXE_pfir");

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

use crate::support::write_file as write;

fn read_pid(p: &Path) -> Option<u32> {
    std::fs::read_to_string(p).ok()?.trim().parse().ok()
}

/// A new temporary directory holding `body` as `t.pfir`.
fn one_test(body: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let test = write(dir.path(), "t.pfir", body);
    (dir, test)
}

/// A new temporary directory holding `t.pfir`, `body` with `{pid}`
/// replaced by the path of a file (`pid`, beside it) its RUN line writes
/// a pid to.
fn writing_a_pid(body: &str) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pid");
    let body = body.replace("{pid}", &pidfile.display().to_string());
    let test = write(dir.path(), "t.pfir", &body);
    (dir, test, pidfile)
}

/// `pfir test ARGS TEST`, with its standard output as text.
fn run_on(args: &[&str], test: &Path) -> (Output, String) {
    let r = Command::new(PFIR)
        .arg("test")
        .args(args)
        .arg(test)
        .output()
        .expect("running pfir test");
    let stdout = text(&r.stdout);
    (r, stdout)
}

/// `pfir test ARGS TEST` with its standard output piped, waited for a
/// minute at the most (killed after that): whether it finished, and what
/// it wrote.
fn run_guarded(args: &[&str], test: &Path) -> (bool, Output) {
    let mut child = Command::new(PFIR)
        .arg("test")
        .args(args)
        .arg(test)
        .stdout(Stdio::piped())
        .spawn()
        .expect("running pfir test");
    let finished = eventually(|| matches!(child.try_wait(), Ok(Some(_))));
    if !finished {
        let _ = child.kill();
    }
    (finished, child.wait_with_output().unwrap())
}

/// The old runner used `$TMPDIR/pfir-lit-<pid>-<n>` with `create_dir_all`,
/// accepting a directory planted by someone else. Plant those names (world
/// writable, holding a symlink to a victim) and check that nothing is
/// written through them, and that the real directory is private.
#[test]
fn scratch_directories_are_private_and_unpredictable() {
    let dir = tempfile::tempdir().unwrap();
    let victim = write(dir.path(), "victim", "precious");
    let mut planted = Vec::new();
    for n in 0..64 {
        let p = std::env::temp_dir().join(format!("pfir-lit-{}-{n}", std::process::id()));
        if std::fs::create_dir(&p).is_ok() {
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o777)).unwrap();
            std::os::unix::fs::symlink(&victim, p.join("t.pfir.tmp")).unwrap();
            planted.push(p);
        }
    }
    let test = write(
        dir.path(),
        "t.pfir",
        "// RUN: sh -c 'echo hijacked > %t'\n// RUN: stat -c %a %T > %S/mode.txt\n// RUN: echo %T > %S/dir.txt\n",
    );
    // The runner itself (`crates/lit`) in this process, whose id the
    // planted names carry; the RUN lines need no pfir tool.
    let result = lit::run_test(&test, &lit::Config::new(lit::Tools::new()));
    for p in planted {
        let _ = std::fs::remove_dir_all(p);
    }
    assert!(result.passed(), "{}", lit::report::failure_report(&result));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("mode.txt"))
            .unwrap()
            .trim(),
        "700"
    );
    let scratch = std::fs::read_to_string(dir.path().join("dir.txt")).unwrap();
    let scratch = Path::new(scratch.trim());
    let name = scratch.file_name().unwrap().to_string_lossy().into_owned();
    assert!(name.starts_with("pfir-lit-"), "{name}");
    assert!(
        !name.starts_with(&format!("pfir-lit-{}-", std::process::id())),
        "a predictable name: {name}"
    );
    assert!(!scratch.exists(), "removed after a pass");
}

#[test]
fn update_leaves_checks_it_cannot_attribute_alone() {
    let original = "// RUN: echo hello | FileCheck %s\n// CHECK: hello\n";
    let (_dir, test) = one_test(original);
    let (r, stdout) = run_on(&["--update"], &test);
    assert!(r.status.success(), "{stdout}");
    assert!(stdout.contains("PASS: "), "{stdout}");
    assert!(stdout.contains("checks not updated"), "{stdout}");
    assert!(stdout.contains("text outside functions"), "{stdout}");
    assert_eq!(std::fs::read_to_string(&test).unwrap(), original);
}

#[test]
fn a_refused_update_reports_the_error_once() {
    let (_dir, test) = one_test(
        "// RUN: pfir opt %s | FileCheck %s\n// CHECK: x\nfunc f() {\n  x = undefined_name\n}\n",
    );
    let (r, stdout) = run_on(&["--update"], &test);
    assert_eq!(r.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("checks not updated"), "{stdout}");
    assert_eq!(stdout.matches("undefined_name").count(), 2, "{stdout}");
    // Twice: once in the source line of the snippet, once in the message
    // (`unknown variable `undefined_name``); no second copy of the report.
    assert_eq!(stdout.matches("unknown variable").count(), 1, "{stdout}");
}

#[test]
fn update_keeps_crlf_line_endings() {
    let (_dir, test) =
        one_test("// RUN: pfir opt %s | FileCheck %s\r\n// CHECK: stale\r\nfunc f() {\r\n}\r\n");
    let (r, stdout) = run_on(&["--update"], &test);
    assert!(r.status.success(), "{stdout}");
    let updated = std::fs::read_to_string(&test).unwrap();
    assert_eq!(
        updated,
        "// RUN: pfir opt %s | FileCheck %s\r\n// CHECK-LABEL: func f() {\r\n// CHECK-NEXT: }\r\nfunc f() {\r\n}\r\n"
    );
}

#[test]
fn update_keeps_the_files_mode_and_refuses_write_protected_files() {
    let dir = tempfile::tempdir().unwrap();
    let body = "// RUN: pfir opt %s | FileCheck %s\n// CHECK: stale\nfunc f() {\n}\n";
    let test = write(dir.path(), "t.pfir", body);
    std::fs::set_permissions(&test, std::fs::Permissions::from_mode(0o600)).unwrap();
    let (r, stdout) = run_on(&["--update"], &test);
    assert!(r.status.success(), "{stdout}");
    let mode = std::fs::metadata(&test).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let ro = write(dir.path(), "ro.pfir", body);
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o444)).unwrap();
    let (_, stdout) = run_on(&["--update"], &ro);
    assert!(stdout.contains("write-protected"), "{stdout}");
    assert_eq!(std::fs::read_to_string(&ro).unwrap(), body);
}

/// `--timeout` kills the whole process group: a grandchild holding the
/// output pipe (`sleep 1000` started by `sh`) dies too, so the runner
/// returns instead of waiting for it.
#[test]
fn timeout_kills_the_process_group() {
    let (_dir, test, pidfile) =
        writing_a_pid("// RUN: sh -c 'sleep 1000 & echo $! > {pid}; wait'\n");
    let (r, stdout) = run_on(&["--timeout", "1"], &test);
    assert_eq!(r.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("timed out"), "{stdout}");
    let pid = read_pid(&pidfile).expect("the pid was written");
    assert!(eventually(|| process_ended(pid)), "sleep {pid} survived");
}

/// Processes that leave the process group die with the pipeline too: a
/// `setsid` daemon and a double fork (a subshell that starts a `setsid`
/// process and exits), which used to keep the output pipe open until
/// `--timeout` and survive the runner.
#[test]
fn processes_that_leave_the_group_die_with_the_pipeline() {
    let dir = tempfile::tempdir().unwrap();
    let (p1, p2) = (dir.path().join("pid1"), dir.path().join("pid2"));
    let test = write(
        dir.path(),
        "t.pfir",
        &format!(
            "// RUN: sh -c 'setsid sleep 1000 & echo $! > {}; echo started'\n\
             // RUN: sh -c '( setsid sh -c \"echo \\$\\$ > {}; exec sleep 1000\" & ) ; while [ ! -s {} ]; do sleep 0.05; done; echo started'\n",
            p1.display(),
            p2.display(),
            p2.display()
        ),
    );
    // Guarded: without the fix the runner waits for the sleep forever.
    let (finished, r) = run_guarded(&["--timeout", "30", "-v"], &test);
    let stdout = text(&r.stdout);
    for pidfile in [&p1, &p2] {
        let pid = read_pid(pidfile).expect("the pid was written");
        let ended = process_ended(pid);
        if !ended {
            kill_quietly(pid);
        }
        assert!(ended, "sleep {pid} outlived pfir test: {stdout}");
    }
    assert!(finished, "pfir test did not end within a minute");
    assert_eq!(r.status.code(), Some(0), "{stdout}");
    assert!(!stdout.contains("timed out"), "{stdout}");
}

/// A process that escapes the kill (it cleared its environment, so it is
/// not recognised as the pipeline's) and holds the output pipe open does
/// not hang the runner: the pipe stops being read once the commands ended.
#[test]
fn an_escaped_process_holding_the_pipe_does_not_hang_the_runner() {
    let (_dir, test, pidfile) =
        writing_a_pid("// RUN: sh -c 'env -i setsid sleep 1000 & echo $! > {pid}; echo started'\n");
    let (finished, r) = run_guarded(&["-v"], &test);
    if let Some(pid) = read_pid(&pidfile) {
        kill_quietly(pid);
    }
    assert!(finished, "pfir test waited for the escaped process");
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stdout));
}

#[test]
fn captured_output_is_bounded() {
    let (_dir, test) = one_test(
        "// RUN: sh -c 'yes abcdefgh | head -c 50000000; yes e | head -c 30000000 >&2; exit 1'\n",
    );
    let (r, stdout) = run_on(&[], &test);
    assert_eq!(r.status.code(), Some(1));
    assert!(
        stdout.len() < 10_000_000,
        "a report of {} bytes",
        stdout.len()
    );
    let dropped_out = 50_000_000 - lit::execute::DEFAULT_CAPTURE_LIMIT;
    let dropped_err = 30_000_000 - lit::execute::DEFAULT_CAPTURE_LIMIT;
    assert!(stdout.contains(&format!("[... {dropped_out} bytes dropped ...]")));
    assert!(stdout.contains(&format!("[... {dropped_err} bytes dropped ...]")));
}

#[test]
fn a_crash_never_passes_under_not() {
    let dir = tempfile::tempdir().unwrap();
    let panics = write(dir.path(), "panics.pfir", "// RUN: not sh -c 'exit 101'\n");
    let killed = write(
        dir.path(),
        "killed.pfir",
        "// RUN: not sh -c 'kill -9 $$'\n",
    );
    let fails = write(dir.path(), "fails.pfir", "// RUN: not sh -c 'exit 1'\n");
    let config = lit::Config::new(lit::Tools::new());
    let r = lit::run_test(&panics, &config);
    assert!(!r.passed());
    assert!(lit::report::failure_report(&r).contains("a Rust panic"));
    assert!(!lit::run_test(&killed, &config).passed());
    assert!(lit::run_test(&fails, &config).passed());
}

#[test]
fn discovery_survives_symlink_loops_and_unreadable_directories() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::set_permissions(root, std::fs::Permissions::from_mode(0o755)).unwrap();
    write(root, "ok/a.pfir", "// RUN: true\n");
    write(root, "locked/b.pfir", "// RUN: true\n");
    std::os::unix::fs::symlink("..", root.join("ok/up")).unwrap();
    std::fs::set_permissions(root.join("locked"), std::fs::Permissions::from_mode(0o000)).unwrap();
    // Root reads any directory: run as `nobody` then.
    let as_root = rustix::process::geteuid().is_root();
    let mut cmd = if as_root {
        let mut c = Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups", PFIR]);
        c
    } else {
        Command::new(PFIR)
    };
    let r = cmd
        .args(["test", &root.display().to_string()])
        .env("TMPDIR", "/tmp")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    std::fs::set_permissions(root.join("locked"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let (stdout, stderr) = (text(&r.stdout), text(&r.stderr));
    assert_eq!(r.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stderr.contains(&format!("cannot read '{}'", root.join("locked").display())),
        "{stderr}"
    );
    assert_eq!(stdout.matches("PASS: ").count(), 1, "{stdout}");
    assert!(stdout.contains("Total Discovered Tests: 1\n"), "{stdout}");
    assert!(stdout.contains("1 path could not be read"), "{stdout}");
}

/// SIGTERM to `pfir test` kills the running command's process group and
/// removes the scratch directory.
#[test]
fn a_killed_runner_cleans_up() {
    use std::os::unix::process::ExitStatusExt;
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let pidfile = dir.path().join("pid");
    let test = write(
        dir.path(),
        "t.pfir",
        &format!(
            "// RUN: sh -c 'echo x > %t; echo $$ > {}; exec sleep 1000'\n",
            pidfile.display()
        ),
    );
    let mut child = Command::new(PFIR)
        .args(["test", &test.display().to_string()])
        .env("TMPDIR", &tmp)
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    assert!(eventually(|| read_pid(&pidfile).is_some()));
    let sleeper = read_pid(&pidfile).unwrap();
    assert_eq!(
        std::fs::read_dir(&tmp).unwrap().count(),
        1,
        "one scratch directory"
    );
    let pid = rustix::process::Pid::from_child(&child);
    rustix::process::kill_process(pid, rustix::process::Signal::TERM).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(
        status.signal(),
        Some(rustix::process::Signal::TERM.as_raw())
    );
    assert!(
        eventually(|| process_ended(sleeper)),
        "sleep {sleeper} survived"
    );
    let left: Vec<_> = std::fs::read_dir(&tmp).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
}

/// A stage run as a process cannot allocate past `--memory-limit` (MiB):
/// `pfir opt` reading 200 MB of `/dev/zero` under a 32 MiB limit fails to
/// allocate and aborts (a crash); without a limit (`0`) it reads them all
/// and exits 1, the input being over its size limit.
#[cfg(target_os = "linux")]
#[test]
fn process_stages_are_held_to_the_memory_limit() {
    let (_dir, test) = one_test(
        "// RUN: not --crash pfir opt /dev/zero --input-size-limit=200000000 -o /dev/null\n",
    );
    let (r, out) = run_on(&["--memory-limit", "32"], &test);
    assert!(r.status.success(), "{out}");
    let (r, out) = run_on(&["--memory-limit", "0"], &test);
    assert!(!r.status.success(), "{out}");
    assert!(out.contains("exit status 1"), "{out}");
}
