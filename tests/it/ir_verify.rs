//! `pfir::ir::verify` on real IR: every valid input of the repository
//! verifies clean as read, and after the pass (run through the pipeline,
//! whose `--verify-each` runs the verifier too); so do the benchmarks'
//! synthetic programs. The verifier's own tests, one per corruption, are
//! in `src/ir/verify/tests.rs`.

use crate::support::{PASS, repository_pfir_files};
use pfir::ir::verify::verify_module;

#[test]
fn every_valid_input_verifies_clean_before_and_after_the_pass() {
    let mut checked = 0;
    let mut passed = 0;
    let mut failures = Vec::new();
    for path in repository_pfir_files() {
        let text = std::fs::read_to_string(&path).unwrap();
        for (_, chunk) in pfir::split_input(&text) {
            let (Some(mut m), _) = pfir::parse(chunk).into_parts() else {
                continue;
            };
            checked += 1;
            if let Err(errors) = verify_module(&m) {
                failures.push(format!("{} as read: {errors:#?}", path.display()));
                continue;
            }
            // Run the pass directly (no pipeline, so no requirement check
            // or verify-each): what it leaves must verify clean.
            let requirements_hold = pfir::passes::registry::lookup(PASS)
                .unwrap()
                .required()
                .iter()
                .all(|p| p.verify(&m).is_empty());
            if !requirements_hold {
                continue;
            }
            let mut ctx = pfir::passes::PassContext::default();
            pfir::passes::registry::lookup(PASS)
                .unwrap()
                .run(&mut m, &mut ctx);
            match verify_module(&m) {
                Ok(()) => passed += 1,
                Err(errors) => {
                    failures.push(format!("{} after the pass: {errors:#?}", path.display()))
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(checked >= 50, "only {checked} valid inputs found");
    eprintln!("{checked} valid inputs verify clean ({passed} also after the pass)");
}

#[test]
fn synthetic_programs_verify_clean_before_and_after_the_pass() {
    use pfir::passes::synth;
    for mut m in [synth::flat(3, 4), synth::wide(16)] {
        verify_module(&m).unwrap();
        let mut ctx = pfir::passes::PassContext::default();
        pfir::passes::registry::lookup(PASS)
            .unwrap()
            .run(&mut m, &mut ctx);
        verify_module(&m).unwrap();
    }
}

/// `main`'s `return` stripped of its value: IR the pass keeps as it is,
/// so the verifier finds it malformed after the pass.
fn malformed_after_any_pass() -> (pfir::ir::Module, &'static str) {
    let src = "func k() -> task_id {\n  return system.task_invalid()\n}\n\
               orchestration func main() -> task_id {\n  v, t = submit k()\n  return t\n}\n";
    let mut m = crate::support::module(src);
    let main = m.function_mut("main").unwrap();
    let body = main.block_stmts(&main.body).to_vec();
    let ret = *body.last().unwrap();
    main.stmts[ret].kind = pfir::ir::StmtKind::Return(pfir::ir::ExprList::new());
    (m, src)
}

// Built from `default()` so that options added later keep compiling.
#[allow(clippy::field_reassign_with_default)]
fn pipeline(verify_each: bool) -> pfir::passes::PipelineOptions {
    let mut o = pfir::passes::PipelineOptions::default();
    o.passes = vec![PASS.to_string()];
    o.verify_each = verify_each;
    o
}

#[test]
fn verify_each_reports_malformed_ir_as_a_bug_of_the_pass() {
    let (mut m, src) = malformed_after_any_pass();
    let file = pfir::diagnostics::SourceFile::new("t.pfir", src);
    let r = pfir::passes::run_pipeline(&mut m, &file, &pipeline(true));
    let errors: Vec<_> = r
        .diagnostics
        .iter()
        .filter(|d| d.severity == pfir::diagnostics::Severity::Error)
        .collect();
    assert_eq!(errors.len(), 1, "{:#?}", r.diagnostics);
    let text = format!("{:?}", errors[0]);
    assert!(
        text.contains("after `expand-manual-phase-fence`, the IR is not well formed"),
        "{text}"
    );
    assert!(text.contains("0 values where 1 are expected"), "{text}");
}

/// Without `--verify-each`, a debug build still checks, as an assertion.
#[cfg(debug_assertions)]
#[test]
#[should_panic(expected = "the IR is not well formed")]
fn without_verify_each_debug_builds_assert_well_formed_ir() {
    let (mut m, src) = malformed_after_any_pass();
    let file = pfir::diagnostics::SourceFile::new("t.pfir", src);
    pfir::passes::run_pipeline(&mut m, &file, &pipeline(false));
}

/// The verifier does not recurse: loops nested as deep as the lexer
/// allows (`MAX_NESTING`) verify on a thread with a 256 KiB stack.
#[test]
fn nesting_at_the_limit_verifies_on_an_ordinary_stack() {
    let depth = pfir::limits::MAX_NESTING;
    let m = pfir::passes::synth::deep(depth);
    std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(move || verify_module(&m).unwrap())
        .unwrap()
        .join()
        .unwrap();
}
