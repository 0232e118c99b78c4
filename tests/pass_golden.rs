//! What the lit tests of `expand-manual-phase-fence` cannot express.
//!
//! Every `tests/passes/NAME.pfir` is a lit test (its RUN lines pin the
//! printed output with FileCheck and the remarks with
//! `--verify-diagnostics`; run them with `cargo test --test lit -- passes/`
//! and update them with `pfir test --update tests/passes`). This test checks,
//! for each of them, that running the pass twice gives the same text as
//! running it once (idempotence) and that the output reads back to the same
//! text.

use pfir::diagnostics::{DiagnosticFormat, SourceFile, render_all};
use pfir::passes::{PipelineOptions, run_pipeline};
use std::path::{Path, PathBuf};

const PASS: &str = "expand-manual-phase-fence";

/// Runs the pass twice on `path`; returns an error message when a second run
/// changes the output or the output does not read back to itself.
fn check_case(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    pfir::driver::with_large_stack(move || {
        let file = SourceFile::new(name, text.clone());
        let (module, diags) = pfir::driver::read_module(&text, 0);
        let mut module =
            module.ok_or_else(|| render_all(&diags, &file, DiagnosticFormat::Short, false))?;
        let first = run_pipeline(&mut module, &file, &PipelineOptions::with_passes(&[PASS]));
        if first.diagnostics.iter().any(|d| d.is_error()) {
            return Err(render_all(
                &first.diagnostics,
                &file,
                DiagnosticFormat::Short,
                false,
            ));
        }
        let printed = pfir::printer::print_module(&module);
        // Idempotence: a second run changes nothing and reports nothing.
        let second = run_pipeline(&mut module, &file, &PipelineOptions::with_passes(&[PASS]));
        if !second.diagnostics.is_empty() {
            return Err(format!("second run reported {:?}", second.diagnostics));
        }
        let again = pfir::printer::print_module(&module);
        if again != printed {
            return Err(format!(
                "a second run changed the output\n--- once\n{printed}\n--- twice\n{again}"
            ));
        }
        // The output reads back to the same text.
        match pfir::driver::read_module(&printed, 0) {
            (Some(m), _) if pfir::printer::print_module(&m) == printed => Ok(()),
            (Some(m), _) => Err(format!(
                "the output does not read back to itself\n--- printed\n{printed}\n--- reread\n{}",
                pfir::printer::print_module(&m)
            )),
            (None, diags) => Err(format!("the output does not read back: {diags:?}")),
        }
    })
}

fn cases() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/passes");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pfir"))
        .collect();
    v.sort();
    v
}

#[test]
fn idempotent_and_reads_back() {
    let all = cases();
    assert!(all.len() >= 15, "golden cases missing");
    let failures: Vec<String> = all
        .iter()
        .filter_map(|path| {
            check_case(path)
                .err()
                .map(|e| format!("{}: {e}", path.display()))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Each golden input is a lit test whose first RUN line pins the pass's
/// output, so deleting the checks cannot silently turn it into a no-op.
#[test]
fn every_case_is_a_lit_test() {
    for path in cases() {
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.contains("// RUN: pfir opt %s --passes=expand-manual-phase-fence | FileCheck %s")
                && text.contains("// CHECK-LABEL:")
                && text.contains("--verify-diagnostics"),
            "{}: not a lit test with FileCheck and --verify-diagnostics RUN lines",
            path.display()
        );
    }
}
