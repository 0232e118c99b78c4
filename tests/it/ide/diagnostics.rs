//! The diagnostics of an analysis are exactly what `pfir opt
//! --passes=expand-manual-phase-fence --remarks` reports (with
//! `--split-input-file` when the document has `// -----` lines): same
//! diagnostics, same order, on every example and test file and on random
//! mutations of them, so the language server (which publishes these) and
//! the command line never disagree.

use super::robustness::{mutated_seed, seeds};
use pfir::OptOptions;
use pfir::diagnostics::{Diagnostic, Severity, SourceFile};
use pfir::ide::Analysis;
use pfir::passes::PipelineOptions;
use proptest::prelude::*;

/// The passes the editor runs (and publishes the diagnostics of).
const EDITOR_PASSES: &[&str] = &["expand-manual-phase-fence"];

/// What `pfir opt` reports for `text`, remarks included when `remarks`.
fn opt_diagnostics(text: &str, remarks: bool) -> Vec<Diagnostic> {
    let file = SourceFile::new("document", text);
    let options = OptOptions {
        // A `// -----` line: more than one chunk.
        split_input_file: pfir::split_input(text).len() > 1,
        keep_comments: false,
        pipeline: PipelineOptions {
            remarks: remarks.then(Vec::new),
            ..PipelineOptions::with_passes(EDITOR_PASSES)
        },
    };
    pfir::opt(&file, &options).diagnostics
}

fn agree(text: &str) -> Result<(), TestCaseError> {
    let analysis = Analysis::new(text);
    let with_remarks = opt_diagnostics(text, true);
    let diagnostics = analysis.diagnostics();
    prop_assert_eq!(&diagnostics, &with_remarks);
    // With the remarks setting off (the language server's default), what
    // `pfir opt` reports without `--remarks`.
    let without_remarks: Vec<Diagnostic> = diagnostics
        .into_iter()
        .filter(|d| d.severity != Severity::Remark)
        .collect();
    prop_assert_eq!(without_remarks, opt_diagnostics(text, false));
    Ok(())
}

#[test]
fn every_example_and_test_file_agrees_with_pfir_opt() {
    let mut with_errors = 0;
    let mut with_remarks = 0;
    for text in seeds() {
        agree(text).unwrap();
        let diags = Analysis::new(text).diagnostics();
        with_errors += usize::from(diags.iter().any(Diagnostic::is_error));
        with_remarks += usize::from(diags.iter().any(|d| d.severity == Severity::Remark));
    }
    // The corpus covers both kinds of chunk.
    assert!(with_errors > 5, "{with_errors} seeds with errors");
    assert!(with_remarks > 5, "{with_remarks} seeds with remarks");
}

#[test]
fn syntax_errors_hide_the_semantic_errors_of_their_function_as_in_pfir_opt() {
    // `zz` is unknown (a lowering error) but its function has a syntax
    // error, so `pfir opt` reports the syntax error alone; the next chunk
    // is read on its own and reports its unknown name.
    let text = "func f() {\n  y = zz\n  x = = 1\n}\n// -----\nfunc g() {\n  y = ww\n}\n";
    let diags = Analysis::new(text).diagnostics();
    assert!(
        !diags.iter().any(|d| d.message.contains("zz")),
        "{diags:#?}"
    );
    assert!(diags.iter().any(|d| d.message.contains("ww")), "{diags:#?}");
    agree(text).unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 120, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_examples_and_tests_agree_with_pfir_opt(
        src in mutated_seed(),
    ) {
        agree(&src)?;
    }
}
