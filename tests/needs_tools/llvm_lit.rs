//! The `.pfir` tests under LLVM's lit (`tests/lit.cfg.py`), run when `lit`
//! is installed (`pip install lit`), reported as ignored otherwise: the
//! formatter's tests pass under it as under `pfir test`, and in a scratch
//! tree with the same configuration a failing CHECK fails (`FileCheck` is
//! `pfir filecheck`, really checking) and `Inputs/` holds no tests.

use std::path::Path;
use std::process::{Command, Stdio};

/// `lit ARGS` with this build's `pfir`: (exit status, its report).
fn lit(args: &[&Path]) -> Result<(bool, String), String> {
    let scratch = tempfile::tempdir().unwrap();
    let out = Command::new("lit")
        .arg("-v")
        .args(args)
        .env("PFIR", env!("CARGO_BIN_EXE_pfir"))
        .env("PFIR_LIT_OUTPUT", scratch.path())
        .stdin(Stdio::null())
        .output()
        .map_err(|_| "LLVM's `lit` is not installed (pip install lit)".to_string())?;
    let report =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    Ok((out.status.success(), report))
}

fn tests_pass_under_llvm_lit() -> Option<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let fmt = root.join("lit/fmt");
    let (ok, report) = match lit(&[&fmt]) {
        Ok(r) => r,
        Err(why) => return Some(why),
    };
    let count = std::fs::read_dir(&fmt)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "pfir")
        })
        .count();
    assert!(ok, "{report}");
    assert!(report.contains(&format!("Passed: {count} ")), "{report}");

    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::copy(root.join("lit.cfg.py"), d.join("lit.cfg.py")).unwrap();
    std::fs::create_dir(d.join("Inputs")).unwrap();
    let func = "func main() {\n  x = 1\n}\n";
    for (name, check) in [
        ("pass.pfir", "x = 1"),
        ("fail.pfir", "x = 2"),
        ("Inputs/input.pfir", "not a test"),
    ] {
        let text = format!("// RUN: pfir opt %s | FileCheck %s\n// CHECK: {check}\n{func}");
        std::fs::write(d.join(name), text).unwrap();
    }
    let (ok, report) = lit(&[d]).unwrap();
    assert!(!ok, "{report}");
    assert!(report.contains("PASS: pfir :: pass.pfir"), "{report}");
    assert!(report.contains("FAIL: pfir :: fail.pfir"), "{report}");
    assert!(report.contains("Total Discovered Tests: 2"), "{report}");
    None
}

pub fn trials() -> Vec<libtest_mimic::Trial> {
    vec![super::needs_tool(
        "llvm_lit::tests_pass_under_llvm_lit",
        tests_pass_under_llvm_lit,
    )]
}
