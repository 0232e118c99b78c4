//! Limits instead of crashes: deep nesting works to well past 10,000 levels,
//! and input deeper than `pfir::lexer::MAX_NESTING` gets a diagnostic.

use pfir::driver::{read_module, with_large_stack};
use pfir::lexer::MAX_NESTING;

/// `depth` nested `for` loops inside a manual scope, with a submit at the bottom.
pub fn nested_loops(depth: usize) -> String {
    let mut s = String::from("func k() -> task_id {\n  return system.task_invalid()\n}\n");
    s.push_str("orchestration func main() {\n  manual {\n    tids = array.create(4, task_id)\n");
    s.push_str(&crate::support::nested_for_loops(
        depth,
        "a, t = submit k(deps=[tids])\n",
    ));
    s.push_str("  }\n}\n");
    s
}

/// `src` read and run through the pass, which reports no error (call on a
/// large stack).
fn read_and_run_the_pass(src: &str) -> pfir::ir::Module {
    let (module, diags) = read_module(src, 0);
    let mut module = module.unwrap_or_else(|| panic!("{:?}", diags.first()));
    let file = pfir::diagnostics::SourceFile::new("deep.pfir", src);
    let r = pfir::passes::run_passes(&mut module, &file, &["expand-manual-phase-fence"])
        .expect("the pass exists");
    assert!(!pfir::diagnostics::has_errors(&r.diagnostics));
    module
}

fn first_error(src: &str) -> Option<String> {
    let src = src.to_string();
    with_large_stack(move || {
        let (module, diags) = read_module(&src, 0);
        match module {
            Some(_) => None,
            None => Some(
                diags
                    .iter()
                    .find(|d| d.is_error())
                    .map(|d| d.message.clone())
                    .unwrap_or_default(),
            ),
        }
    })
}

#[test]
fn ten_thousand_nested_loops_parse_and_lower() {
    assert_eq!(first_error(&nested_loops(10_000)), None);
}

#[test]
fn hundred_thousand_nested_loops_parse_and_lower() {
    assert_eq!(first_error(&nested_loops(100_000)), None);
}

#[test]
fn braces_past_the_limit_get_a_diagnostic() {
    let depth = MAX_NESTING + 10;
    let src = format!(
        "func f() {{\n  x = {}1{}\n}}\n",
        "(".repeat(depth),
        ")".repeat(depth)
    );
    let msg = first_error(&src).expect("rejected");
    assert!(msg.contains("nesting is deeper than the limit"), "{msg}");
}

#[test]
fn operator_chains_past_the_limit_get_a_diagnostic() {
    let n = MAX_NESTING + 10;
    let sum = format!("func f() {{\n  x = 1{}\n}}\n", " + 1".repeat(n));
    assert!(
        first_error(&sum)
            .expect("rejected")
            .contains("nesting is deeper than the limit")
    );
    let nots = format!("func f() {{\n  x = {}true\n}}\n", "not ".repeat(n));
    assert!(
        first_error(&nots)
            .expect("rejected")
            .contains("nesting is deeper than the limit")
    );
    let negs = format!("func f() {{\n  x = {}1\n}}\n", "-".repeat(n));
    assert!(
        first_error(&negs)
            .expect("rejected")
            .contains("nesting is deeper than the limit")
    );
}

#[test]
fn else_if_chains_past_the_limit_get_a_diagnostic() {
    let n = MAX_NESTING + 10;
    let src = format!(
        "func f(c: bool) {{\n  if c {{\n  }}{}\n}}\n",
        " else if c {\n  }".repeat(n)
    );
    assert!(
        first_error(&src)
            .expect("rejected")
            .contains("nesting is deeper than the limit")
    );
}

#[test]
fn long_chains_below_the_limit_work() {
    let sum = format!("func f() {{\n  x = 1{}\n}}\n", " + 1".repeat(50_000));
    assert_eq!(first_error(&sum), None);
    let src = format!(
        "func f(c: bool) {{\n  if c {{\n  }}{}\n}}\n",
        " else if c {\n  }".repeat(20_000)
    );
    assert_eq!(first_error(&src), None);
}

/// The stack strategy (docs/decisions.md, "One stack strategy"): every walk
/// may recurse once per nesting level, and `MAX_NESTING` levels fit the
/// worker stack. The deepest input the lexer allows goes through the whole
/// pipeline on it: read, the pass, printing, structural equality and the
/// drops of the AST and the IR.
#[test]
fn the_deepest_allowed_nesting_goes_through_the_whole_pipeline() {
    // Room for the function's own braces and the statement's level.
    let depth = MAX_NESTING - 4;
    let negations = format!(
        "func f() -> i64 {{\n  x = {}1\n  return x\n}}\n",
        "-".repeat(depth)
    );
    let sums = format!(
        "func f() -> i64 {{\n  x = 1{}\n  return x\n}}\n",
        " + 1".repeat(depth)
    );
    let parens = format!(
        "func f() -> i64 {{\n  x = {}1{}\n  return x\n}}\n",
        "(".repeat(depth),
        ")".repeat(depth)
    );
    for src in [negations, sums, parens] {
        with_large_stack(move || {
            let module = read_and_run_the_pass(&src);
            let printed = pfir::printer::print_module(&module);
            let (again, _) = read_module(&printed, 0);
            let again = again.expect("the printed form reads back");
            pfir::ir::equality::modules_equal(&module, &again).expect("a fixpoint");
        });
    }
    // Loops: the nest is read, run through the pass and dropped (printing
    // it writes about `depth`^2 bytes of indentation).
    with_large_stack(|| read_and_run_the_pass(&nested_loops(MAX_NESTING - 4)));
}
