//! Thousands of random and mutated inputs thrown at the front end: it never
//! panics, and every rejection carries at least one error diagnostic whose
//! span lies inside the file on character boundaries. Accepted inputs print
//! to a fixpoint.

use proptest::prelude::*;

const TOKENS: &[&str] = &[
    "func",
    "orchestration",
    "incore",
    "opaque",
    "in",
    "out",
    "inout",
    "for",
    "range",
    "parallel",
    "unroll",
    "iter",
    "while",
    "if",
    "else",
    "manual",
    "auto",
    "yield",
    "return",
    "break",
    "continue",
    "submit",
    "true",
    "false",
    "none",
    "and",
    "or",
    "not",
    "i64",
    "bool",
    "task_id",
    "index",
    "f32",
    "array",
    "tensor",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    "<",
    ">",
    ",",
    ":",
    "=",
    "->",
    ".",
    "+",
    "-",
    "*",
    "/",
    "%",
    "==",
    "!=",
    "<=",
    ">=",
    "x",
    "tids",
    "k",
    "_",
    "0",
    "4",
    "1.5",
    "1e3",
    "\"s\"",
    "array.create",
    "system.task_dummy",
    "deps",
    "\n",
    "// c\n",
    "$",
    "\"",
    "é",
    "99999999999999999999",
];

const SEEDS: &[&str] = &[
    include_str!("../../examples/first.pfir"),
    include_str!("../../examples/chained_phases.pfir"),
    include_str!("../../examples/every_construct.pfir"),
];

fn check(src: &str) -> Result<(), TestCaseError> {
    let (module, diags) = pfir::driver::read_module(src, 0);
    for d in &diags {
        let s = d.primary.span;
        prop_assert!(
            s.start() <= s.end() && s.end() <= src.len(),
            "span {:?} outside a {}-byte file",
            s,
            src.len()
        );
        prop_assert!(
            src.is_char_boundary(s.start()) && src.is_char_boundary(s.end()),
            "span {:?} splits a character",
            s
        );
        for l in &d.secondary {
            prop_assert!(l.span.end() <= src.len());
        }
    }
    match module {
        None => prop_assert!(
            diags.iter().any(|d| d.is_error()),
            "rejected without an error"
        ),
        Some(m) => {
            prop_assert!(!diags.iter().any(|d| d.is_error()));
            let printed = pfir::printer::print_module(&m);
            let again = pfir::driver::canonicalize(&printed);
            prop_assert!(
                again.as_deref() == Ok(printed.as_str()),
                "printing is not a fixpoint for {src:?}"
            );
        }
    }
    // Formatting never panics; when the input reads, it is idempotent and
    // keeps every comment.
    if let Ok(formatted) = pfir::format::format_text(src) {
        let again = pfir::format::format_text(&formatted).ok();
        prop_assert!(
            again.as_deref() == Some(formatted.as_str()),
            "formatting is not idempotent for {src:?}"
        );
        let texts = |t: &str| {
            let mut v: Vec<String> = pfir::lexer::comments(t, 0)
                .into_iter()
                .map(|c| t[c.range()].trim_end().to_string())
                .collect();
            v.sort();
            v
        };
        prop_assert_eq!(texts(&formatted), texts(src));
    }
    // Every format renders without failing.
    let file = pfir::diagnostics::SourceFile::new("f.pfir", src);
    for format in [
        pfir::diagnostics::DiagnosticFormat::Human,
        pfir::diagnostics::DiagnosticFormat::Short,
        pfir::diagnostics::DiagnosticFormat::Json,
    ] {
        let _ = pfir::diagnostics::render_all(&diags, &file, format, false);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_token_soup(tokens in proptest::collection::vec(proptest::sample::select(TOKENS), 0..60)) {
        check(&tokens.join(" "))?;
    }

    #[test]
    fn random_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        check(&String::from_utf8_lossy(&bytes))?;
    }

    #[test]
    fn mutated_examples(
        seed in 0..SEEDS.len(),
        edits in proptest::collection::vec((any::<prop::sample::Index>(), 0usize..8, proptest::sample::select(TOKENS)), 1..4),
    ) {
        let mut src = SEEDS[seed].to_string();
        for (at, len, insert) in edits {
            let mut start = at.index(src.len() + 1);
            while !src.is_char_boundary(start) { start -= 1; }
            let mut end = (start + len).min(src.len());
            while !src.is_char_boundary(end) { end += 1; }
            src.replace_range(start..end, insert);
        }
        check(&src)?;
    }
}
