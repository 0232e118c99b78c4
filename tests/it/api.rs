//! The library API (`pfir::parse`, `run_passes`, `print`, `format`,
//! `check`) on the caller's own stack: the test harness's threads have a
//! 2 MiB stack (unless `RUST_MIN_STACK` says otherwise), and a thread of
//! 256 KiB gets every call with input nested to the lexer's limit.

use pfir::limits::MAX_NESTING;

/// `x = 1 + (1 + (... 1 ...))`, `depth` levels of parentheses inside a
/// function body (which is one level itself).
fn nested_sum(depth: usize) -> String {
    format!(
        "func f() {{\n  x = {}1{}\n}}\n",
        "1 + (".repeat(depth),
        ")".repeat(depth)
    )
}

/// Runs `f` on a thread with a 256 KiB stack.
fn on_a_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(f)
        .expect("a thread")
        .join()
        .expect("no panic")
}

/// The project's one stack strategy (`src/stack.rs`): each facade call on
/// a 256 KiB thread takes input at the nesting limit (nested operators and
/// parentheses through all five calls, nested loops through the pass).
/// `cargo test --release --test it api::` runs it in release too.
#[test]
fn every_facade_call_takes_the_nesting_limit_on_a_256_kib_thread() {
    on_a_small_stack(|| {
        let text = nested_sum(MAX_NESTING - 2);
        assert!(pfir::check(&text).is_empty());
        let mut module = pfir::parse(&text).module.expect("a module");
        let pipeline = pfir::PipelineOptions::with_passes(&["expand-manual-phase-fence"]);
        pfir::run_passes(&mut module, &pipeline).expect("the pass runs");
        let printed = pfir::print(&module);
        assert!(printed.ends_with("))\n}\n"));
        assert!(pfir::format(&text).is_ok(), "the formatter refused it");
        assert!(pfir::format_with_width(&text, 30).is_ok());
        assert_eq!(pfir::split_input(&text).len(), 1);
        let file = pfir::diagnostics::SourceFile::new("t.pfir", text.clone());
        for keep_comments in [false, true] {
            let options = pfir::OptOptions {
                split_input_file: true,
                keep_comments,
                pipeline: pipeline.clone(),
            };
            let outcome = pfir::opt(&file, &options);
            assert!(!outcome.diagnostics.iter().any(|d| d.is_error()));
            let mut out = Vec::new();
            outcome.write_output(&mut out).expect("written");
            assert_eq!(String::from_utf8(out).expect("UTF-8"), printed);
        }
    });
    // Loops, through the pass (printing them writes `depth`^2 bytes of
    // indentation).
    on_a_small_stack(|| {
        let text = crate::frontend_limits::nested_loops(MAX_NESTING - 4);
        let parsed = pfir::parse(&text);
        assert!(
            parsed.diagnostics.is_empty(),
            "{:?}",
            parsed.diagnostics.first()
        );
        let mut module = parsed.module.expect("a module");
        let pipeline = pfir::PipelineOptions::with_passes(&["expand-manual-phase-fence"]);
        let report = pfir::run_passes(&mut module, &pipeline).expect("the pass runs");
        assert!(!report.diagnostics.iter().any(|d| d.is_error()));
    });
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
