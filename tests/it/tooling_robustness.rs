//! The test tooling reads user files too (check files, RUN lines,
//! `expected-*` comments, outputs to regenerate checks from): thousands of
//! random and malformed inputs must never make it panic. FileCheck and the
//! RUN-line parser are checked here through their crates; `expected-*`
//! comments and check generation, pfir's own, by the unit tests of
//! `src/testing/verify_diagnostics.rs` and `src/testing/update_checks.rs`.

use filecheck::{FileCheckOptions, check};
use lit::run_line::{Substitutions, find_run_lines, parse};
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
}
