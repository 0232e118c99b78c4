//! No input and no offset makes `pfir::ide` panic, and every range it
//! returns lies inside the document, on character boundaries: random
//! mutations of the examples and tests, random bytes, and every API at
//! every offset of the (small) results; deep nesting does not overflow.

use crate::support::{apply_edits, random_edits};
use pfir::ide::{Analysis, SymbolNode};
use proptest::prelude::*;
use std::ops::Range;

/// Every `.pfir` file of `examples/` and `tests/passes/`.
pub(super) fn seeds() -> &'static [String] {
    static SEEDS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    SEEDS.get_or_init(|| {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut out = Vec::new();
        for dir in ["examples", "tests/passes", "tests/diagnostics"] {
            let mut files: Vec<_> = std::fs::read_dir(root.join(dir))
                .unwrap()
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "pfir"))
                .collect();
            files.sort();
            out.extend(
                files
                    .into_iter()
                    .filter_map(|p| std::fs::read_to_string(p).ok()),
            );
        }
        assert!(out.len() > 20);
        out
    })
}

/// An example or test file of `seeds` with 1 to 4 random edits, each
/// replacing fewer than 12 bytes with one of `PIECES`.
pub(super) fn mutated_seed() -> impl Strategy<Value = String> {
    (any::<prop::sample::Index>(), random_edits(PIECES, 12, 1..5)).prop_map(|(seed, edits)| {
        let seeds = seeds();
        apply_edits(seeds[seed.index(seeds.len())].clone(), &edits)
    })
}

pub(super) const PIECES: &[&str] = &[
    "",
    "é",
    "✓",
    "\u{FEFF}",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "// -----\n",
    "\n// -----\n",
    "for",
    "manual {",
    "\"",
    "x = ",
    "// CHECK: [[X:",
    "{{",
    "// RUN: pfir opt --passes=",
    "submit ",
    "iter(a = ",
    "yield",
    "_",
    "array<task_id, ",
    "->",
    "\n",
    "//",
    "kernel",
    "tids",
    "i8",
];

fn check_range(src: &str, r: &Range<usize>, what: &str) -> Result<(), TestCaseError> {
    prop_assert!(
        r.start <= r.end && r.end <= src.len(),
        "{what}: {r:?} out of bounds in {src:?}"
    );
    prop_assert!(
        src.is_char_boundary(r.start) && src.is_char_boundary(r.end),
        "{what}: {r:?} not on char boundaries in {src:?}"
    );
    Ok(())
}

fn check_symbols(src: &str, nodes: &[SymbolNode]) -> Result<(), TestCaseError> {
    let mut stack: Vec<&SymbolNode> = nodes.iter().collect();
    while let Some(n) = stack.pop() {
        check_range(src, &n.range, "symbol")?;
        check_range(src, &n.selection_range, "symbol selection")?;
        prop_assert!(
            n.range.start <= n.selection_range.start && n.selection_range.end <= n.range.end
        );
        stack.extend(n.children.iter());
    }
    Ok(())
}

/// Every API, at every offset when the text is small (else at a sample).
fn check_all(src: &str) -> Result<(), TestCaseError> {
    let a = Analysis::new(src);
    check_symbols(src, &a.document_symbols())?;
    for f in a.folding_ranges() {
        check_range(src, &f.range, "fold")?;
    }
    let tokens = a.semantic_tokens();
    for w in tokens.windows(2) {
        prop_assert!(w[0].range.end <= w[1].range.start, "tokens overlap");
    }
    for t in &tokens {
        check_range(src, &t.range, "token")?;
    }
    for s in a.symbols_matching("a") {
        check_range(src, &s.range, "workspace symbol")?;
    }
    let step = (src.len() / 400).max(1);
    for offset in (0..=src.len() + 1).step_by(step) {
        if let Some(r) = a.definition(offset) {
            check_range(src, &r, "definition")?;
        }
        for r in a.references(offset, true) {
            check_range(src, &r, "reference")?;
        }
        for h in a.highlights(offset) {
            check_range(src, &h.range, "highlight")?;
        }
        if let Ok(r) = a.prepare_rename(offset) {
            check_range(src, &r, "prepare rename")?;
        }
        if let Ok(edits) = a.rename(offset, "renamed") {
            for (r, _) in edits {
                check_range(src, &r, "rename")?;
            }
        }
        if let Some(h) = a.hover(offset) {
            check_range(src, &h.range, "hover")?;
        }
        for c in a.completions(offset) {
            check_range(src, &c.replace, "completion")?;
        }
        for h in a.inlay_hints(offset..offset + 40) {
            prop_assert!(h.offset <= src.len() && src.is_char_boundary(h.offset));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 150, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_examples_and_tests(
        src in mutated_seed(),
        keep in 80usize..700,
    ) {
        // Small inputs get every offset: keep a prefix.
        let mut cut = keep.min(src.len());
        while !src.is_char_boundary(cut) { cut -= 1; }
        check_all(&src[..cut])?;
    }

    #[test]
    fn random_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..160)) {
        check_all(&String::from_utf8_lossy(&bytes))?;
    }
}

#[test]
fn whole_seeds_at_sampled_offsets() {
    for src in seeds() {
        check_all(src).unwrap();
    }
}

#[test]
fn deep_nesting_does_not_overflow() {
    let depth = 50_000;
    let blocks = format!(
        "orchestration func f() {{\n{}{}}}\n",
        "manual {\n".repeat(depth),
        "}\n".repeat(depth)
    );
    let parens = format!(
        "func g() {{\n  x = {}1{}\n  y = x\n}}\n",
        "(".repeat(depth),
        ")".repeat(depth)
    );
    let operators = format!("func h(a: i64) {{\n  x = a{}\n}}\n", " + a".repeat(depth));
    for src in [blocks, parens, operators] {
        let a = Analysis::new(&src);
        let _ = a.document_symbols();
        let _ = a.folding_ranges();
        let _ = a.semantic_tokens();
        for offset in [0, src.len() / 2, src.len().saturating_sub(8), src.len()] {
            let _ = a.hover(offset);
            let _ = a.completions(offset);
            let _ = a.references(offset, true);
            let _ = a.rename(offset, "z");
        }
    }
}

#[test]
fn an_analysis_can_be_shared_between_threads() {
    fn shareable<T: Send + Sync>() {}
    shareable::<Analysis>();
    // The lazily-run pass gives the same answer from any thread.
    let a = std::sync::Arc::new(Analysis::new(super::FIRST));
    let offset = super::at(super::FIRST, "for p");
    let answers: Vec<Option<String>> = (0..4)
        .map(|_| {
            let a = a.clone();
            std::thread::spawn(move || a.hover(offset).map(|h| h.markdown))
        })
        .collect::<Vec<_>>()
        .into_iter()
        .map(|h| h.join().unwrap())
        .collect();
    assert!(answers[0].as_deref().unwrap().contains("compressed"));
    assert!(answers.iter().all(|x| *x == answers[0]));
}
