//! The layers inside the `pfir` package (ARCHITECTURE.md): no clap types
//! below `src/cli/` (the passes and diagnostics take plain options structs),
//! the IR never calls the printer, the lexer and parser never import the
//! IR. Checked on the source text, comments left out.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("reading src/") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The lines of the `.rs` files under `src/<dir>` (comments dropped) that
/// mention `needle`.
fn offending_lines(dir: &str, needle: &str) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(dir);
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    assert!(!files.is_empty(), "src/{dir} has Rust files");
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("reading a source file");
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if code.contains(needle) {
                found.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
            }
        }
    }
    found
}

#[test]
fn no_clap_below_the_command_line() {
    for dir in [
        "passes",
        "diagnostics",
        "ir",
        "lower",
        "printer",
        "analysis",
    ] {
        let lines = offending_lines(dir, "clap");
        assert!(lines.is_empty(), "clap in src/{dir}:\n{}", lines.join("\n"));
    }
}

#[test]
fn the_ir_never_calls_the_printer() {
    let lines = offending_lines("ir", "printer::");
    assert!(
        lines.is_empty(),
        "src/ir uses the printer:\n{}",
        lines.join("\n")
    );
}

#[test]
fn lexer_and_parser_never_import_the_ir() {
    for dir in ["lexer", "parser"] {
        let lines = offending_lines(dir, "crate::ir");
        assert!(
            lines.is_empty(),
            "src/{dir} imports the IR:\n{}",
            lines.join("\n")
        );
    }
}

/// The check itself finds what it looks for (a file that does mention the
/// needle is reported).
#[test]
fn the_scan_finds_a_mention() {
    assert!(!offending_lines("cli", "clap").is_empty());
}
