//! Tests that need a facility of the system which may be missing: `sh`'s
//! `ulimit -v`, `mkfifo`, root (to give a file to another user). Where it
//! is missing they are reported as ignored, with the reason, never as
//! passed. Their parts that need nothing stay in `tests/it` and in
//! `crates/fsutil`'s unit tests.

use super::{Trial, needs_tool};
use std::path::Path;
use std::process::{Command, Output};

const PFIR: &str = env!("CARGO_BIN_EXE_pfir");

pub fn trials() -> Vec<Trial> {
    vec![
        needs_tool(
            "facilities::every_command_works_in_4_gib_of_address_space",
            every_command_works_in_4_gib_of_address_space,
        ),
        needs_tool(
            "facilities::in_place_rewrites_refuse_a_fifo",
            in_place_rewrites_refuse_a_fifo,
        ),
        needs_tool("facilities::a_fifo_has_no_snapshot", a_fifo_has_no_snapshot),
        needs_tool(
            "facilities::protected_symlinks_are_not_followed",
            protected_symlinks_are_not_followed,
        ),
    ]
}

/// `text` written to `NAME` in `dir`; its path.
fn file_in(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("writing a test file");
    path.display().to_string()
}

/// Runs `check` on a FIFO made with `mkfifo` in a temporary directory:
/// `None`, or why there is no FIFO (the test is skipped).
fn with_a_fifo(check: impl FnOnce(&Path)) -> Option<String> {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    match Command::new("mkfifo").arg(&fifo).status() {
        Ok(s) if s.success() => {
            check(&fifo);
            None
        }
        _ => Some("`mkfifo` is missing or failed".into()),
    }
}

/// `pfir ARGS` under `ulimit -v 4194304` (4 GiB of address space), with
/// `stdin`; `None` when this shell cannot set the limit.
fn under_4_gib(args: &[&str], stdin: &[u8]) -> Option<Output> {
    use std::io::Write;
    let probe = Command::new("sh")
        .args(["-c", "ulimit -v 4194304"])
        .status()
        .ok()?;
    if !probe.success() {
        return None;
    }
    let mut child = Command::new("sh")
        .args(["-c", "ulimit -v 4194304 && exec \"$0\" \"$@\"", PFIR])
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .ok()?;
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child.wait_with_output().ok()
}

fn lsp_message(json: &str) -> Vec<u8> {
    format!("Content-Length: {}\r\n\r\n{json}", json.len()).into_bytes()
}

/// Under a 4 GiB address space every command works, deep input included
/// (the stack grows onto the heap where the recursion is, `src/stack.rs`).
fn every_command_works_in_4_gib_of_address_space() -> Option<String> {
    let dir = tempfile::tempdir().unwrap();
    let src = "func k() -> task_id {\n  return system.task_invalid()\n}\n\norchestration func main() {\n  manual {\n    tids = array.create(4, task_id)\n    for i in parallel(4) {\n      a, t = submit k(deps=[tids])\n    }\n  }\n}\n";
    let file = file_in(dir.path(), "ok.pfir", src);
    let mut ran = 0;
    for args in [
        vec![
            "opt",
            &file,
            "--passes=expand-manual-phase-fence",
            "--verify-deps",
        ],
        vec!["check", &file],
        vec!["fmt", &file],
        vec!["graph", &file, "--format=dot"],
    ] {
        let Some(out) = under_4_gib(&args, b"") else {
            return Some("sh cannot set `ulimit -v`".into());
        };
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        // `check` is silent on a valid file; the others print it.
        assert_eq!(out.stdout.is_empty(), args[0] == "check", "{args:?}");
        ran += 1;
    }
    let mut session = lsp_message(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{},"processId":null,"rootUri":null}}"#,
    );
    session.extend(lsp_message(
        r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#,
    ));
    session.extend(lsp_message(r#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///x/a.pfir","languageId":"pfir","version":1,"text":"func f() {\n  x = nope\n}\n"}}}"#));
    session.extend(lsp_message(r#"{"jsonrpc":"2.0","id":2,"method":"textDocument/documentSymbol","params":{"textDocument":{"uri":"file:///x/a.pfir"}}}"#));
    session.extend(lsp_message(
        r#"{"jsonrpc":"2.0","id":3,"method":"shutdown"}"#,
    ));
    session.extend(lsp_message(r#"{"jsonrpc":"2.0","method":"exit"}"#));
    let out = under_4_gib(&["lsp"], &session).expect("sh set the limit above");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains(r#""id":2"#) && stdout.contains(r#""id":3"#),
        "{stdout}"
    );
    ran += 1;
    // 60,000 nested brackets: read like any other input.
    let deep = file_in(
        dir.path(),
        "deep.pfir",
        &format!(
            "func f() -> i64 {{\n  x = {}1{}\n  return x\n}}\n",
            "(".repeat(60_000),
            ")".repeat(60_000)
        ),
    );
    let out = under_4_gib(&["check", &deep], b"").unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    assert_eq!(ran, 5);
    None
}

/// `fmt -i` and `fix -i` refuse a FIFO at once (no hang).
fn in_place_rewrites_refuse_a_fifo() -> Option<String> {
    with_a_fifo(|fifo| {
        for cmd in ["fmt", "fix"] {
            let out = Command::new(PFIR)
                .args([cmd, "-i", fifo.to_str().unwrap()])
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{stderr}");
            assert!(
                stderr.contains("it is a pipe, not a regular file"),
                "{stderr}"
            );
        }
    })
}

/// A FIFO has no snapshot (it is never rewritten in place); the message
/// says it is a pipe.
fn a_fifo_has_no_snapshot() -> Option<String> {
    with_a_fifo(|fifo| {
        let e = fsutil::Snapshot::of_regular_file(fifo).unwrap_err();
        assert!(e.to_string().contains("a pipe"), "{e}");
    })
}

/// As root: a link owned by `nobody` in a mode-1777 directory, pointing
/// at a root-owned file, is not followed (the kernel's
/// `fs.protected_symlinks` rule); owned by root, it is.
fn protected_symlinks_are_not_followed() -> Option<String> {
    use fsutil::write_atomically;
    use std::os::unix::fs::MetadataExt;
    use std::os::unix::fs::PermissionsExt;
    if rustix::process::geteuid().as_raw() != 0 {
        return Some("needs root to give a link to another user".into());
    }
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim");
    std::fs::write(&victim, "precious").unwrap();
    let shared = dir.path().join("shared");
    std::fs::create_dir(&shared).unwrap();
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o1777)).unwrap();
    let link = shared.join("link");
    std::os::unix::fs::symlink(&victim, &link).unwrap();
    std::os::unix::fs::lchown(&link, Some(65534), None).unwrap();
    assert_eq!(std::fs::symlink_metadata(&link).unwrap().uid(), 65534);
    let e = write_atomically(&link, b"owned").unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::PermissionDenied);
    assert!(e.to_string().contains("protected_symlinks"), "{e}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    std::os::unix::fs::lchown(&link, Some(0), None).unwrap();
    write_atomically(&link, b"mine").unwrap();
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "mine");
    None
}
