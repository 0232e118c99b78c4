//! `pfir opt` as a file writer and reader: `-o` keeps the target's mode,
//! writes through symlinks, refuses write-protected files, leaves no
//! temporary file behind when interrupted; `-o -` and a closed stdout; the
//! input size limit; byte offsets of input that is not UTF-8. Each case runs
//! the binary in a temporary directory.

#![cfg(unix)]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::support::write_file;

const PFIR: &str = env!("CARGO_BIN_EXE_pfir");
const INPUT: &str = "func f() {\n}\n";

fn pfir(args: &[&str]) -> Output {
    Command::new(PFIR)
        .args(args)
        .output()
        .expect("running pfir")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn mode(p: &Path) -> u32 {
    std::fs::metadata(p).unwrap().permissions().mode() & 0o7777
}

fn set_mode(p: &Path, m: u32) {
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).unwrap();
}

/// Files in `dir` whose name shows they are a temporary file of `-o`.
fn temporaries(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().contains("pfir-tmp"))
        .collect()
}

/// `pfir opt INPUT -o OUT`.
fn opt_into(input: &str, out: &Path) -> Output {
    pfir(&["opt", input, "-o", &out.display().to_string()])
}

/// Writes `contents` to `dir/name` and gives it `mode`.
fn existing(dir: &Path, name: &str, contents: &str, mode: u32) -> PathBuf {
    let path = write_file(dir, name, contents);
    set_mode(&path, mode);
    path
}

fn setup() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let input = write_file(dir.path(), "in.pfir", INPUT)
        .display()
        .to_string();
    (dir, input)
}

#[test]
fn output_keeps_the_targets_mode() {
    let (dir, input) = setup();
    for m in [0o600, 0o755, 0o640] {
        let out = existing(dir.path(), &format!("out{m:o}"), "old", m);
        let r = opt_into(&input, &out);
        assert!(r.status.success(), "{}", text(&r.stderr));
        assert_eq!(std::fs::read_to_string(&out).unwrap(), INPUT);
        assert_eq!(mode(&out), m, "mode {m:o} kept");
    }
    assert!(temporaries(dir.path()).is_empty());
}

#[test]
fn output_writes_through_a_symlink() {
    let (dir, input) = setup();
    let real = write_file(dir.path(), "real.pfir", "// stale CHECK lines\n");
    let link = dir.path().join("link.pfir");
    std::os::unix::fs::symlink("real.pfir", &link).unwrap();
    let r = opt_into(&input, &link);
    assert!(r.status.success(), "{}", text(&r.stderr));
    assert_eq!(std::fs::read_to_string(&real).unwrap(), INPUT);
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

#[test]
fn write_protected_output_is_refused() {
    let (dir, input) = setup();
    let out = existing(dir.path(), "ro.pfir", "keep me", 0o444);
    let r = opt_into(&input, &out);
    assert_eq!(r.status.code(), Some(1));
    let stderr = text(&r.stderr);
    assert!(
        stderr.contains(&format!("error[E0024]: cannot write '{}'", out.display()))
            && stderr.contains("write-protected"),
        "{stderr}"
    );
    assert_eq!(stderr.matches("error[E").count(), 1, "{stderr}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "keep me");
    assert_eq!(mode(&out), 0o444);
    assert!(temporaries(dir.path()).is_empty());
}

/// The old code wrote `.NAME.pfir-tmp-<pid>` with `File::create`; a symlink
/// planted under every such name (for the next pids) must not be followed.
#[test]
fn planted_temporary_names_are_not_followed() {
    let (dir, input) = setup();
    let out = dir.path().join("out.pfir");
    let victim = write_file(dir.path(), "victim", "precious");
    let me = std::process::id();
    for pid in me..me + 200 {
        let planted = dir.path().join(format!(".out.pfir.pfir-tmp-{pid}"));
        std::os::unix::fs::symlink(&victim, planted).unwrap();
    }
    let r = opt_into(&input, &out);
    assert!(r.status.success(), "{}", text(&r.stderr));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), INPUT);
    assert!(
        !std::fs::symlink_metadata(&out)
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

#[test]
fn dash_o_dash_is_stdout() {
    let (dir, input) = setup();
    let r = Command::new(PFIR)
        .args(["opt", &input, "-o", "-"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(r.status.success(), "{}", text(&r.stderr));
    assert_eq!(text(&r.stdout), INPUT);
    assert!(!dir.path().join("-").exists(), "no file named `-`");
}

#[test]
fn closed_stdout_is_an_error() {
    let (_dir, input) = setup();
    // `exec pfir ... >&-` starts pfir with file descriptor 1 closed.
    let script = format!("exec '{PFIR}' opt '{input}' >&-");
    let r = Command::new("sh").args(["-c", &script]).output().unwrap();
    assert_eq!(r.status.code(), Some(1), "{}", text(&r.stderr));
    assert!(text(&r.stderr).contains("standard output is closed"));
    // `> /dev/null` is a real destination, and `-o` does not need stdout.
    let script = format!("exec '{PFIR}' opt '{input}' > /dev/null");
    let r = Command::new("sh").args(["-c", &script]).output().unwrap();
    assert!(r.status.success(), "{}", text(&r.stderr));
    let script = format!("exec '{PFIR}' opt '{input}' -o /dev/null >&-");
    let r = Command::new("sh").args(["-c", &script]).output().unwrap();
    assert!(r.status.success(), "{}", text(&r.stderr));
}

#[test]
fn endless_input_stops_at_the_size_limit() {
    let r = pfir(&["opt", "/dev/zero", "--input-size-limit", "65536"]);
    assert_eq!(r.status.code(), Some(1));
    assert_eq!(
        text(&r.stderr),
        "error[E0009]: '/dev/zero' is larger than the input size limit of 64 KiB (65536 bytes)\n"
    );
    // The real limit, on a sparse file that is one byte over it.
    let dir = tempfile::tempdir().unwrap();
    let huge = dir.path().join("huge.pfir");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(pfir::limits::MAX_INPUT_BYTES + 1)
        .unwrap();
    let r = pfir(&["opt", &huge.display().to_string()]);
    assert_eq!(r.status.code(), Some(1));
    assert!(
        text(&r.stderr).contains("larger than the input size limit of 1 GiB"),
        "{}",
        text(&r.stderr)
    );
    // Standard input too.
    let mut child = Command::new(PFIR)
        .args(["opt", "-", "--input-size-limit", "10"])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        let _ = stdin.write_all(INPUT.as_bytes());
    }
    let r = child.wait_with_output().unwrap();
    assert_eq!(r.status.code(), Some(1));
    assert!(text(&r.stderr).contains("standard input is larger than"));
}

#[test]
fn json_offsets_stay_inside_a_file_that_is_not_utf8() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.pfir");
    std::fs::write(&bad, b"func f() {\n}\n\xff").unwrap();
    let r = pfir(&[
        "opt",
        &bad.display().to_string(),
        "--diagnostic-format=json",
    ]);
    assert_eq!(r.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_str(text(&r.stderr).trim()).unwrap();
    assert_eq!(
        (json["start"].as_u64(), json["end"].as_u64()),
        (Some(13), Some(14))
    );
    let label = &json["labels"][0];
    assert_eq!(
        (label["start"].as_u64(), label["end"].as_u64()),
        (Some(13), Some(14))
    );
    // In the middle, a two-byte bad sequence: the end is the byte after it.
    std::fs::write(&bad, b"func f() {\xe2\x82\n}\n").unwrap();
    let r = pfir(&[
        "opt",
        &bad.display().to_string(),
        "--diagnostic-format=json",
    ]);
    let json: serde_json::Value = serde_json::from_str(text(&r.stderr).trim()).unwrap();
    assert_eq!(
        (json["start"].as_u64(), json["end"].as_u64()),
        (Some(10), Some(12))
    );
}

/// A program whose printed form is large (deep nesting indents
/// quadratically) while its text is small: writing it takes a while.
fn slow_to_write(dir: &Path) -> String {
    let depth = 6000;
    let mut s = String::from("func f(c: bool) {\n");
    s.push_str(&"if c {\n".repeat(depth));
    s.push_str(&"}\n".repeat(depth + 1));
    let p = dir.join("deep.pfir");
    std::fs::write(&p, s).unwrap();
    p.display().to_string()
}

fn send(child: &std::process::Child, signal: rustix::process::Signal) {
    let pid = rustix::process::Pid::from_child(child);
    rustix::process::kill_process(pid, signal).unwrap();
}

/// Waits (polling) until `cond` holds; false if it did not within a minute.
fn eventually(mut cond: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(60) {
        if cond() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    false
}

#[test]
fn a_signal_during_output_removes_the_temporary_file() {
    use rustix::process::Signal;
    use std::os::unix::process::ExitStatusExt;
    let dir = tempfile::tempdir().unwrap();
    let input = slow_to_write(dir.path());
    let out = dir.path().join("out.pfir");
    for signal in [Signal::INT, Signal::TERM, Signal::HUP] {
        std::fs::write(&out, "old").unwrap();
        let mut child = Command::new(PFIR)
            .args(["opt", &input, "-o", &out.display().to_string()])
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        assert!(
            eventually(|| !temporaries(dir.path()).is_empty()),
            "the temporary file never appeared"
        );
        send(&child, signal);
        let status = child.wait().unwrap();
        assert_eq!(
            status.signal(),
            Some(signal.as_raw()),
            "ended by the signal ({status:?})"
        );
        assert_eq!(temporaries(dir.path()), Vec::<PathBuf>::new());
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "old");
    }
}
