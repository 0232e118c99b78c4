//! The test tooling reads user files too (check files, RUN lines,
//! `expected-*` comments, outputs to regenerate checks from): thousands of
//! random and malformed inputs must never make it panic.

use pfir::diagnostics::{Diagnostic, Severity, SourceFile};
use pfir::span::Span;
use pfir::testing::filecheck::{FileCheckOptions, check};
use pfir::testing::lit::run_line::{Substitutions, find_run_lines, parse};
use proptest::prelude::*;

const CHECK_PIECES: &[&str] = &[
    "// CHECK:",
    "CHECK-NEXT:",
    "CHECK-SAME:",
    "CHECK-NOT:",
    "CHECK-DAG:",
    "CHECK-LABEL:",
    "CHECK-EMPTY:",
    "CHECK-COUNT-2:",
    "CHECK-COUNT-0:",
    "CHECK-NXT:",
    "FOO:",
    "{{",
    "}}",
    "[[",
    "]]",
    "[[X:",
    "[[X]]",
    "[[#",
    "[[@LINE",
    "+1]]",
    "{{.*}}",
    "{{(}}",
    "{{[a-z]+}}",
    "\\",
    "a",
    "b",
    " ",
    "\t",
    "\n",
    "é",
    "$",
    "COM:",
    "RUN:",
    "CHECK{LITERAL}:",
];

const INPUT_PIECES: &[&str] = &[
    "a", "b", " ", "\t", "\n", "\r\n", "{{", "[[", "é", "x = 1", "CHECK:", "",
];

const RUN_PIECES: &[&str] = &[
    "// RUN: ",
    "pfir",
    "opt",
    "%s",
    "%t",
    "%S",
    "%T",
    "%%",
    "%",
    "|",
    "||",
    "&&",
    ";",
    "&",
    "not",
    "2>&1",
    ">",
    ">>",
    "2>",
    "<",
    "'",
    "\"",
    "\\",
    "\\\n// RUN: ",
    " ",
    "\n",
    "FileCheck",
    "a b",
    "x'y\"z",
];

fn soup(pieces: &'static [&'static str], max: usize) -> impl Strategy<Value = String> {
    proptest::collection::vec(proptest::sample::select(pieces), 0..max).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn filecheck_never_panics(
        checks in soup(CHECK_PIECES, 40),
        input in soup(INPUT_PIECES, 40),
        strict in any::<bool>(),
        full in any::<bool>(),
    ) {
        let opts = FileCheckOptions { strict_whitespace: strict, match_full_lines: full, ..FileCheckOptions::default() };
        if let Err(f) = check(&checks, "c.check", &input, "<stdin>", &opts) {
            // A failure always renders.
            prop_assert!(!f.report().is_empty());
        }
    }

    #[test]
    fn run_lines_never_panic(text in soup(RUN_PIECES, 30)) {
        let subs = Substitutions { source: "t.pfir".into(), temp: "t.tmp".into(), custom: Vec::new() };
        if let Ok(lines) = find_run_lines(&text) {
            for line in lines {
                let _ = parse(&line.text, &subs);
            }
        }
    }

    #[test]
    fn verify_diagnostics_never_panics(
        lines in proptest::collection::vec(
            proptest::sample::select(&[
                "x", "// expected-error {{a}}", "// expected-error@+1 {{a}}", "// expected-error@-9 {{a}}",
                "// expected-note@+99999999999999999999 {{b}}", "// expected-remark {{", "// expected-warning }}",
                "// expected-error @+1 {{a}} {{b}}", "// expected-bogus {{a}}", "", "é",
            ][..]),
            0..12,
        ),
        at in proptest::collection::vec((0usize..400, 0usize..3), 0..4),
    ) {
        let text = lines.join("\n");
        let file = SourceFile::new("v.pfir", text.clone());
        let produced: Vec<Diagnostic> = at
            .into_iter()
            .map(|(offset, sev)| {
                let severity = [Severity::Error, Severity::Note, Severity::Remark][sev];
                Diagnostic::new(severity, "a", Span::new(offset, offset + 1))
            })
            .collect();
        let _ = pfir::testing::verify_diagnostics::verify(&file, &produced);
    }

    #[test]
    fn check_generation_never_panics(input in soup(INPUT_PIECES, 30), output in soup(&["func f() {\n", "}\n", "  x\n", "// -----\n", "\n", "{{"], 20), split in any::<bool>()) {
        let _ = pfir::testing::update_checks::generate(&input, &output, "CHECK", split);
    }
}
