//! Limits instead of crashes: deep nesting works to well past 10,000 levels,
//! and input deeper than `pfir::limits::MAX_NESTING` gets a diagnostic.

use pfir::limits::MAX_NESTING;

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

/// The message of the first error reading `src`, `None` when it reads.
fn first_error(src: &str) -> Option<String> {
    let parsed = pfir::parse(src);
    match parsed.module {
        Some(_) => None,
        None => Some(
            parsed
                .diagnostics
                .iter()
                .find(|d| d.is_error())
                .map(|d| d.message.clone())
                .unwrap_or_default(),
        ),
    }
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
