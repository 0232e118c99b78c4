//! Thousands of random and mutated inputs thrown at the front end: it never
//! panics, and every rejection carries at least one error diagnostic whose
//! span lies inside the file on character boundaries. Accepted inputs print
//! to a fixpoint.

use crate::support::{apply_edits, random_edits};
use proptest::prelude::*;

/// Tokens and pieces that are not reserved words, in the order the
/// replacements (below) and the token soup use them.
const PUNCTUATION: &[&str] = &[
    "(", ")", "{", "}", "[", "]", "<", ">", ",", ":", "=", "->", ".", "+",
];

/// Pieces for the token soup and the mutations: every reserved word of
/// `pfir::vocab`, the punctuation, and names, numbers, strings, comments
/// and stray characters.
fn tokens() -> Vec<&'static str> {
    pfir::vocab::reserved_words()
        .chain(PUNCTUATION.iter().copied())
        .chain([
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
        ])
        .collect()
}

const SEEDS: &[&str] = &[
    include_str!("../../examples/first.pfir"),
    include_str!("../../examples/chained_phases.pfir"),
    include_str!("../../examples/every_construct.pfir"),
];

fn check(src: &str) -> Result<(), TestCaseError> {
    let (module, diags) = pfir::parse(src).into_parts();
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
            let printed = pfir::print(&m);
            let again = pfir::parse(&printed).module.map(|m| pfir::print(&m));
            prop_assert!(
                again.as_deref() == Some(printed.as_str()),
                "printing is not a fixpoint for {src:?}"
            );
        }
    }
    // Formatting never panics; when the input reads, it is idempotent and
    // keeps every comment.
    if let Ok(formatted) = pfir::format(src) {
        let again = pfir::format(&formatted).ok();
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
    fn random_token_soup(tokens in proptest::collection::vec(proptest::sample::select(tokens()), 0..60)) {
        check(&tokens.join(" "))?;
    }

    #[test]
    fn random_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        check(&String::from_utf8_lossy(&bytes))?;
    }

    #[test]
    fn mutated_examples(
        seed in 0..SEEDS.len(),
        edits in random_edits(tokens(), 8, 1..4),
    ) {
        check(&apply_edits(SEEDS[seed].to_string(), &edits))?;
    }
}

/// Every valid chunk of the examples and the `.pfir` tests (those that read
/// without an error), as `(file, chunk text)`.
fn valid_chunks() -> Vec<(String, String)> {
    let files = crate::support::repository_pfir_files();
    let mut out = Vec::new();
    for f in files {
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        for (_, chunk) in pfir::split_input(&text) {
            if let (Some(_), _) = pfir::parse(chunk).into_parts() {
                out.push((f.display().to_string(), chunk.to_string()));
            }
        }
    }
    out
}

/// Replacement texts for the "replace with another token kind" mutation:
/// one of each kind of token.
fn replacements() -> Vec<&'static str> {
    [
        "func", "for", "in", "range", "if", "else", "yield", "return", "submit", "manual", "i64",
        "array",
    ]
    .into_iter()
    .chain(PUNCTUATION.iter().copied())
    .chain(["==", "x", "_", "4", "1.5", "\"s\"", "array.create"])
    .collect()
}

/// Single-token mutations (delete, duplicate, replace with another kind of
/// token) of every valid file: at most 2 errors in at least 95% of them.
/// Every token of every valid chunk is mutated when there are few; past
/// `BUDGET` mutations of one kind, tokens are taken at a regular stride.
#[test]
fn single_token_mutations_give_at_most_two_errors() {
    const BUDGET: usize = 1500;
    let replacements = replacements();
    let chunks = valid_chunks();
    assert!(chunks.len() >= 20, "only {} valid chunks", chunks.len());
    let tokens: Vec<(usize, usize, usize)> = chunks
        .iter()
        .enumerate()
        .flat_map(|(c, (_, text))| {
            pfir::lexer::lex(text, 0)
                .unwrap_or_default()
                .into_iter()
                .map(move |(l, _, r)| (c, l, r))
        })
        .collect();
    let stride = tokens.len().div_ceil(BUDGET).max(1);
    let mut total = 0usize;
    let mut good = 0usize;
    let mut worst: Vec<(usize, String)> = Vec::new();
    let mut by_kind = [(0usize, 0usize); 3];
    for (n, &(c, l, r)) in tokens.iter().enumerate().step_by(stride) {
        let text = &chunks[c].1;
        let tok = &text[l..r];
        let replacement = replacements
            .iter()
            .cycle()
            .skip(n % replacements.len())
            .find(|t| **t != tok)
            .copied()
            .unwrap_or("x");
        let mutants = [
            format!("{}{}", &text[..l], &text[r..]),
            format!("{} {}{}", &text[..r], tok, &text[r..]),
            format!("{}{}{}", &text[..l], replacement, &text[r..]),
        ];
        for (kind, src) in mutants.iter().enumerate() {
            let (_, diags) = pfir::parse(src).into_parts();
            let errors = diags.iter().filter(|d| d.is_error()).count();
            total += 1;
            by_kind[kind].0 += 1;
            if errors <= 2 {
                good += 1;
                by_kind[kind].1 += 1;
            } else if worst.len() < 10 {
                let what = match kind {
                    0 => format!("delete `{tok}`"),
                    1 => format!("duplicate `{tok}`"),
                    _ => format!("replace `{tok}` with `{replacement}`"),
                };
                worst.push((errors, format!("{} {what} at byte {l}", chunks[c].0)));
            }
        }
    }
    let percent = |g: usize, t: usize| 100.0 * g as f64 / t.max(1) as f64;
    println!(
        "single-token mutations: {good} of {total} ({:.1}%) give at most 2 errors \
         (delete {:.1}%, duplicate {:.1}%, replace {:.1}%; {} tokens of {} valid chunks, stride {stride})",
        percent(good, total),
        percent(by_kind[0].1, by_kind[0].0),
        percent(by_kind[1].1, by_kind[1].0),
        percent(by_kind[2].1, by_kind[2].0),
        tokens.len(),
        chunks.len(),
    );
    for (errors, what) in &worst {
        println!("  {errors} errors: {what}");
    }
    assert!(
        good * 100 >= total * 95,
        "only {good} of {total} mutations give at most 2 errors"
    );
}
