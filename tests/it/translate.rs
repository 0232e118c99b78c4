//! `pfir translate`: every `.pfir` file of the repository that uses only
//! constructs PyPTO's DSL has goes to the DSL and back to exactly its
//! canonical form (`pfir opt --split-input-file`), comments and all
//! chunks included; every other valid file is refused only for what
//! PyPTO lacks (E0029), never for anything else. Needs no PyPTO.

use crate::support::repository_pfir_files;
use pfir::diagnostics::Code;
use std::process::Command;

/// The canonical form of `path` as `pfir opt --split-input-file` prints
/// it, when every chunk is valid.
fn canonical(path: &std::path::Path) -> Option<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_pfir"))
        .args(["opt", "--split-input-file"])
        .arg(path)
        .output()
        .expect("running pfir opt");
    out.status
        .success()
        .then(|| String::from_utf8(out.stdout).expect("UTF-8 output"))
}

#[test]
fn every_file_pypto_can_say_round_trips_to_its_canonical_form() {
    let mut round_tripped = Vec::new();
    let mut failures = Vec::new();
    for path in repository_pfir_files() {
        let Some(expected) = canonical(&path) else {
            continue;
        };
        let text = std::fs::read_to_string(&path).unwrap();
        let to = pfir::translate::to_pypto(&text);
        let Some(python) = to.output else {
            let other: Vec<_> = to
                .diagnostics
                .iter()
                .filter(|d| d.is_error() && d.code != Some(Code::NoTranslation))
                .collect();
            if !other.is_empty() {
                failures.push(format!("{}: --to=pypto: {other:?}", path.display()));
            }
            continue;
        };
        let back = pfir::translate::from_pypto(&python);
        match back.output {
            Some(pfir) if pfir == expected => round_tripped.push(path),
            Some(pfir) => failures.push(format!(
                "{}: the round trip differs:\n{pfir}\n--- expected ---\n{expected}\n--- via ---\n{python}",
                path.display()
            )),
            None => failures.push(format!(
                "{}: --from=pypto refused its own output: {:?}\n{python}",
                path.display(),
                back.diagnostics
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(
        round_tripped
            .iter()
            .any(|p| p.ends_with("examples/first.pfir")),
        "examples/first.pfir must round-trip: {round_tripped:?}"
    );
    assert!(
        round_tripped.len() >= 60,
        "only {} files round-tripped",
        round_tripped.len()
    );
    eprintln!(
        "{} files round-trip through PyPTO's DSL",
        round_tripped.len()
    );
}

/// Comments carry over: each `//` comment is a `#` comment of the DSL,
/// at its place (above a function, above a statement, after one).
#[test]
fn comments_become_python_comments_where_they_stood() {
    let text = "// above the kernel\nfunc k() -> task_id {\n  // above the return\n  return system.task_invalid() // after it\n}\n";
    let python = pfir::translate::to_pypto(text).output.expect("translates");
    assert!(
        python.contains(
            "    # above the kernel\n    @pl.function\n    def k(self) -> pl.Scalar[pl.TASK_ID]:\n        # above the return\n        return pl.system.task_invalid()  # after it\n"
        ),
        "{python}"
    );
}

/// Deep or malformed Python gives an error, never a crash.
#[test]
fn deep_or_broken_python_is_an_error_not_a_crash() {
    let deep = format!(
        "import pypto.language as pl\n@pl.program\nclass P:\n    @pl.function\n    def f(self) -> pl.Scalar[pl.INT64]:\n        return {}1{}\n",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    let t = pfir::translate::from_pypto(&deep);
    assert!(t.output.is_none());
    assert!(
        t.diagnostics.iter().any(|d| d.code == Some(Code::TooDeep)),
        "{:?}",
        t.diagnostics
    );
    for text in [
        "@",
        "class",
        "def f(:",
        "x = \"unterminated",
        "\tx\n  y",
        "if x:\nelse",
        "pl.f(a=)",
    ] {
        let t = pfir::translate::from_pypto(&format!("@pl.program\nclass P:\n    {text}\n"));
        assert!(
            t.diagnostics.iter().any(|d| d.is_error()) || t.output.is_some(),
            "{text}"
        );
    }
}

mod random {
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        /// Random programs PyPTO's DSL can say come back canonical.
        #[test]
        fn random_programs_round_trip(program in crate::support::generator::program()) {
            let src = crate::support::generator::render(&program);
            let module = crate::support::module(&src);
            let canonical = pfir::print(&module);
            if let Some(python) = pfir::translate::to_pypto(&src).output {
                let back = pfir::translate::from_pypto(&python);
                prop_assert_eq!(back.output.as_deref(), Some(canonical.as_str()), "{}", python);
            }
        }

        /// Python cut and spliced anywhere gives a translation or errors,
        /// never a panic.
        #[test]
        fn mangled_python_never_panics(cuts in proptest::collection::vec((0usize..4000, 0usize..4000), 1..4)) {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/translate/Inputs/printed.py");
            let mut text = std::fs::read_to_string(path).unwrap().into_bytes();
            for (a, b) in cuts {
                let (a, b) = (a.min(text.len()), b.min(text.len()));
                let piece = text[a.min(b)..a.max(b)].to_vec();
                text.splice(a.min(b)..a.min(b), piece);
            }
            let text = String::from_utf8_lossy(&text);
            let t = pfir::translate::from_pypto(&text);
            prop_assert!(t.output.is_some() || t.diagnostics.iter().any(|d| d.is_error()));
        }
    }
}
