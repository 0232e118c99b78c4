//! `--verify-deps` stays bounded on the pathological shapes of issue 12,
//! and checks the common ones exactly: no "stopped short" warning, and a
//! dependency lost anywhere in them is still reported. (Times are measured
//! by `benches/verify_deps_shapes.py`, never asserted here.)

use crate::support::{self, module};
use pfir::analysis::{Limits, verify_dependencies};
use pfir::diagnostics::Diagnostic;

const KERNEL: &str = "func k() {\n}\n\n";

fn fan_out(producers: usize, consumers: usize) -> String {
    format!(
        "{KERNEL}orchestration func main() {{\n  manual {{\n    tids = array.create({producers}, task_id)\n    for i in range({producers}) {{\n      p = submit k()\n      _ = array.update_element(tids, i, p)\n    }}\n    for j in range({consumers}) {{\n      c = submit k(deps=[tids])\n    }}\n  }}\n}}\n"
    )
}

fn if_chain(links: usize) -> String {
    let mut s =
        format!("{KERNEL}orchestration func main(c: bool) {{\n  manual {{\n    p0 = submit k()\n");
    for i in 1..=links {
        s += &format!(
            "    p{i} = if c {{\n      t{i} = submit k(deps=[p{}])\n      yield t{i}\n    }} else {{\n      yield p{}\n    }}\n",
            i - 1,
            i - 1
        );
    }
    s + "  }\n}\n"
}

fn else_if_chain(n: usize) -> String {
    let mut s = format!(
        "{KERNEL}orchestration func main(x: i64) {{\n  manual {{\n    tids = array.create(8, task_id)\n    for i in range(4) {{\n      p = submit k()\n      _ = array.update_element(tids, i, p)\n    }}\n    for j in range(2) {{\n"
    );
    for b in 0..n {
        let head = if b == 0 {
            "      if"
        } else {
            "      } else if"
        };
        s += &format!("{head} x == {b} {{\n        t{b} = submit k(deps=[tids])\n");
    }
    s + "      }\n    }\n  }\n}\n"
}

fn nested_unknown(depth: usize) -> String {
    let mut s = format!(
        "{KERNEL}orchestration func main(m: i64) {{\n  manual {{\n    tids = array.create(4, task_id)\n"
    );
    for d in 0..depth {
        s += &format!("for v{d} in range(m) {{\n");
    }
    s += "t = submit k(deps=[tids])\n";
    for _ in 0..depth {
        s += "}\n";
    }
    s + "  }\n}\n"
}

fn many_functions(n: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        s += &format!("func fn{i}() {{\n}}\n\n");
    }
    s + &fan_out(4, 4)
}

/// `--verify-deps` of `before` against the pass's output (or `after`).
fn verify(before: &str, after: Option<&str>) -> Result<Vec<Diagnostic>, Diagnostic> {
    verify_on_this_thread(before, after)
}

fn verify_on_this_thread(before: &str, after: Option<&str>) -> Result<Vec<Diagnostic>, Diagnostic> {
    let b = module(before);
    let a = match after {
        Some(text) => module(text),
        None => {
            let mut a = b.clone();
            support::run_pass(&mut a, before).expect("pass runs");
            a
        }
    };
    verify_dependencies(&b, &a, &Limits::default())
}

fn assert_exact(src: &str) {
    match verify(src, None) {
        Ok(w) => assert!(w.is_empty(), "stopped short: {:?}", w[0].message),
        Err(d) => panic!("{}", d.message),
    }
}

fn assert_lost(before: &str, after: &str, what: &str) {
    match verify(before, Some(after)) {
        Err(d) => assert!(
            d.message.starts_with("dependency lost") && d.message.contains(what),
            "{}",
            d.message
        ),
        Ok(w) => panic!("the lost dependency was not found (warnings: {w:?})"),
    }
}

/// The common shapes are checked exactly, and the same shape with one
/// dependency dropped (`from` replaced by `to`) reports the one it lost.
#[test]
fn common_shapes_are_checked_exactly_and_a_lost_edge_is_caught() {
    let cases = [
        // Fan-out: the barrier misses the producers, every consumer loses them.
        (
            fan_out(4096, 8000),
            "    for j in range(8000) {\n      c = submit k(deps=[tids])",
            "    fence = system.task_dummy(deps=[])\n    for j in range(8000) {\n      c = submit k(deps=[fence])",
            "`c = submit k` (loop iteration [0])",
        ),
        // An `if` chain: link 1200 drops its only dependency (p1199, which
        // may be t1199 or anything before it, down to p0).
        (
            if_chain(1600),
            "t1200 = submit k(deps=[p1199])",
            "t1200 = submit k()",
            "`t1200 = submit k`",
        ),
        (
            else_if_chain(4000),
            "t3999 = submit k(deps=[tids])",
            "t3999 = submit k()",
            "`t3999 = submit k` (loop iteration [0])",
        ),
        (
            many_functions(80_000),
            "c = submit k(deps=[tids])",
            "c = submit k()",
            "`c = submit k`",
        ),
    ];
    for (src, from, to, lost) in cases {
        assert_exact(&src);
        let wrong = src.replace(from, to);
        assert_lost(&src, &wrong, lost);
    }
}

#[test]
fn deep_unknown_loop_nests_stop_with_a_warning_not_a_hang() {
    // 20 nested loops of unknown trip count: exploring them is exponential,
    // so a budget stops it; the result is a warning, never an error.
    let w = verify(&nested_unknown(20), None).expect("no difference");
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].message
            .starts_with("--verify-deps stopped short in `main`: the work budget"),
        "{}",
        w[0].message
    );
    assert_eq!(w[0].severity, pfir::diagnostics::Severity::Warning);
    // A shallow nest is checked exactly.
    assert_exact(&nested_unknown(6));
}
