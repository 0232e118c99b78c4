//! Golden tests of `expand-manual-phase-fence`.
//!
//! Every `tests/passes/NAME.pfir` is read, run through
//! `--passes=expand-manual-phase-fence --remarks` and printed. The printed
//! IR must equal `NAME.expected` and the remarks (short format) must equal
//! `NAME.remarks`. Run with `UPDATE_EXPECT=1` to rewrite both files.
//!
//! Each case also checks that running the pass again changes nothing
//! (idempotence) and that the output reads back to the same text.

use pfir::diagnostics::{DiagnosticFormat, SourceFile, render_all};
use pfir::passes::{PipelineOptions, run_pipeline};
use std::path::{Path, PathBuf};

const PASS: &str = "expand-manual-phase-fence";

struct Outcome {
    printed: String,
    remarks: String,
    again: String,
    reread: Option<String>,
}

fn run_case(path: &Path) -> Result<Outcome, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    pfir::driver::with_large_stack(move || {
        let file = SourceFile::new(name, text.clone());
        let (module, diags) = pfir::driver::read_module(&text, 0);
        let mut module =
            module.ok_or_else(|| render_all(&diags, &file, DiagnosticFormat::Short, false))?;
        let mut opts = PipelineOptions::with_passes(&[PASS]);
        opts.remarks = Some(vec![String::new()]);
        let result = run_pipeline(&mut module, &file, &opts);
        let printed = pfir::printer::print_module(&module);
        let remarks = render_all(&result.diagnostics, &file, DiagnosticFormat::Short, false);
        // Idempotence: a second run changes nothing.
        let second = run_pipeline(&mut module, &file, &PipelineOptions::with_passes(&[PASS]));
        if !second.diagnostics.is_empty() {
            return Err(format!("second run reported {:?}", second.diagnostics));
        }
        let again = pfir::printer::print_module(&module);
        // The output reads back to the same text.
        let reread = match pfir::driver::read_module(&printed, 0) {
            (Some(m), _) => Some(pfir::printer::print_module(&m)),
            (None, _) => None,
        };
        Ok(Outcome {
            printed,
            remarks,
            again,
            reread,
        })
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
fn golden() {
    // Until the canonical printer lands, `print_module` is a placeholder
    // (an empty module prints as a comment, not as nothing): skip.
    if !pfir::printer::print_module(&pfir::ir::Module::default()).is_empty() {
        eprintln!("skipping: the canonical printer is not available yet");
        return;
    }
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut failures = Vec::new();
    let all = cases();
    assert!(all.len() >= 15, "golden cases missing");
    for path in all {
        let outcome = match run_case(&path) {
            Ok(o) => o,
            Err(e) => {
                failures.push(format!("{}: {e}", path.display()));
                continue;
            }
        };
        let expected = path.with_extension("expected");
        let remarks = path.with_extension("remarks");
        if update {
            std::fs::write(&expected, &outcome.printed).unwrap();
            std::fs::write(&remarks, &outcome.remarks).unwrap();
        } else {
            let want = std::fs::read_to_string(&expected).unwrap_or_default();
            if want != outcome.printed {
                failures.push(format!(
                    "{}: output differs\n--- expected\n{want}\n--- actual\n{}",
                    path.display(),
                    outcome.printed
                ));
            }
            let want = std::fs::read_to_string(&remarks).unwrap_or_default();
            if want != outcome.remarks {
                failures.push(format!(
                    "{}: remarks differ\n--- expected\n{want}\n--- actual\n{}",
                    path.display(),
                    outcome.remarks
                ));
            }
        }
        if outcome.again != outcome.printed {
            failures.push(format!(
                "{}: a second run changed the output",
                path.display()
            ));
        }
        if outcome.reread.as_deref() != Some(outcome.printed.as_str()) {
            failures.push(format!("{}: the output does not read back", path.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
