//! The library API (`pfir::parse`, `run_passes`, `print`, `format`,
//! `check`) on the caller's own stack: the test harness's threads have a
//! 2 MiB stack (unless `RUST_MIN_STACK` says otherwise), smaller than a
//! main thread's 8 MiB, and every call here gets input nested to the
//! lexer's limit without wrapping anything in `with_large_stack`.

use pfir::lexer::MAX_NESTING;

/// `x = 1 + (1 + (... 1 ...))`, `depth` levels of parentheses inside a
/// function body (which is one level itself).
fn nested_sum(depth: usize) -> String {
    format!(
        "func f() {{\n  x = {}1{}\n}}\n",
        "1 + (".repeat(depth),
        ")".repeat(depth)
    )
}

#[test]
fn every_call_takes_input_at_the_nesting_limit_on_the_callers_stack() {
    let text = nested_sum(MAX_NESTING - 2);
    let parsed = pfir::parse(&text);
    assert!(
        parsed.diagnostics.is_empty(),
        "{:?}",
        parsed.diagnostics.first()
    );
    let mut module = parsed.module.expect("a module");
    let pipeline = pfir::PipelineOptions::with_passes(&["expand-manual-phase-fence"]);
    pfir::run_passes(&mut module, &pipeline).expect("the pass runs");
    let printed = pfir::print(&module);
    assert!(printed.starts_with("func f() {\n  x = 1 + (1 + "));
    assert!(printed.ends_with("))\n}\n"));
    assert!(pfir::format(&text).is_ok(), "the formatter refused it");
    assert!(pfir::check(&text).is_empty());
}

#[test]
fn input_past_the_limit_is_a_diagnostic_not_a_crash() {
    let text = nested_sum(MAX_NESTING + 10);
    let parsed = pfir::parse(&text);
    assert!(parsed.module.is_none());
    assert!(
        parsed
            .diagnostics
            .iter()
            .any(|d| d.is_error() && d.message.contains("nesting is deeper than the limit"))
    );
    assert!(matches!(pfir::format(&text), Err(pfir::FormatError { .. })));
}

#[test]
fn an_unknown_pass_is_a_typed_error_and_nothing_runs() {
    let mut module = pfir::parse("func f() {\n  x = 1\n}\n")
        .module
        .expect("a module");
    let before = pfir::print(&module);
    let pipeline = pfir::PipelineOptions::with_passes(&["no-such-pass"]);
    match pfir::run_passes(&mut module, &pipeline) {
        Err(pfir::PipelineError::UnknownPass(e)) => {
            assert_eq!(e.name, "no-such-pass");
            assert_eq!(e.option, "--passes");
        }
        other => panic!("expected UnknownPass, got {other:?}"),
    }
    assert_eq!(pfir::print(&module), before);
}
