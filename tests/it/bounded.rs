//! Bounded on the command line (issue 25): whatever the input, what pfir
//! writes is bounded by the input's size, not by its errors or its nesting.
//! Every bound is checked by size or count, never by time.

use std::path::Path;
use std::process::{Command, Output};

const PFIR: &str = env!("CARGO_BIN_EXE_pfir");

fn pfir(args: &[&str]) -> Output {
    Command::new(PFIR)
        .args(args)
        .output()
        .expect("running pfir")
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// 30 KB of `(` (30,000 unclosed delimiters) and 30,000 unknown variables on
/// one 210 KB line: every format writes at most `--error-limit` errors, each
/// with its snippet cut to the labels, then a note counting the rest.
#[test]
fn diagnostics_of_a_small_file_stay_small() {
    let dir = tempfile::tempdir().unwrap();
    let parens = write(
        dir.path(),
        "parens.pfir",
        &format!(
            "func f() -> i64 {{\n  x = {}\n  return 0\n}}\n",
            "(".repeat(30_000)
        ),
    );
    let nope = write(
        dir.path(),
        "nope.pfir",
        &format!(
            "func f() -> i64 {{\n  x = {}nope\n  return 0\n}}\n",
            "nope + ".repeat(30_000)
        ),
    );
    for (file, left) in [(&parens, 29_950), (&nope, 29_951)] {
        for format in ["human", "short", "json"] {
            let out = pfir(&["check", file, &format!("--diagnostic-format={format}")]);
            assert_eq!(out.status.code(), Some(1));
            let stderr = String::from_utf8_lossy(&out.stderr);
            // 50 errors of at most a few hundred bytes each, plus the note.
            assert!(stderr.len() < 50 * 700, "{format}: {} bytes", stderr.len());
            assert!(
                stderr.contains(&format!("{left} more errors not shown")),
                "{format}: {stderr}"
            );
            let errors = stderr.matches("error[E00").count()
                + stderr.matches("\"severity\":\"error\"").count();
            assert_eq!(errors, 50, "{format}");
        }
    }
    // The limit is a flag; 0 shows them all.
    let out = pfir(&[
        "check",
        &nope,
        "--diagnostic-format=short",
        "--error-limit=7",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.matches(": error[").count(), 7, "{stderr}");
    assert!(stderr.contains("29994 more errors not shown"), "{stderr}");
    let out = pfir(&[
        "check",
        &nope,
        "--diagnostic-format=short",
        "--error-limit=0",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.matches(": error[").count(), 30_001);
    assert!(!stderr.contains("not shown"));
}
