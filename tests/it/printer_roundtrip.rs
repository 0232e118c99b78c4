//! The canonical printer from text (spec section 9): every construct
//! round-trips (`print(read(print(read(x)))) == print(read(x))` byte for
//! byte, and the two read modules are structurally equal), and each printing
//! rule gives exactly the expected text.

use pfir::ir::Module;
use pfir::ir::equality::modules_equal;
use pfir::print;

/// Reads `text`, panicking with its diagnostics when it does not lower.
fn read(text: &str) -> Module {
    match pfir::parse(text).into_parts() {
        (Some(m), _) => m,
        (None, diags) => panic!("input does not read: {diags:#?}\n{text}"),
    }
}

/// The canonical form of `text`, after checking that it is a fixpoint and
/// that reading it back gives the same IR.
fn canon(text: &str) -> String {
    let first = read(text);
    let printed = print(&first);
    let second = read(&printed);
    let reprinted = print(&second);
    assert_eq!(reprinted, printed, "not a fixpoint");
    if let Err(e) = modules_equal(&first, &second) {
        panic!("re-read IR differs: {e}\n{printed}");
    }
    assert!(
        printed.lines().all(|l| l == l.trim_end()),
        "trailing whitespace"
    );
    printed
}

/// Asserts that `input` prints exactly as `expected`, and that `expected` is
/// its own canonical form.
#[track_caller]
fn prints_as(input: &str, expected: &str) {
    assert_eq!(canon(input), expected);
    assert_eq!(canon(expected), expected);
}

/// Wraps statements in `func f(..) { .. }` with a few parameters in scope.
fn in_func(body: &str) -> String {
    format!(
        "func k(a: i64) -> i64 {{\n  return a\n}}\n\nfunc f(x: i64, y: i64, b: bool, c: bool, t: task_id, ts: array<task_id, 4>) {{\n{body}}}\n"
    )
}

/// Binds each `(source, printed)` expression to `e0`, `e1`, ... in one
/// function and checks the whole function prints as expected.
fn prints_each_as(cases: &[(&str, &str)]) {
    let bind = |pick: fn(&(&str, &str)) -> String| -> String {
        cases
            .iter()
            .enumerate()
            .map(|(i, c)| format!("  e{i} = {}\n", pick(c)))
            .collect()
    };
    prints_as(
        &in_func(&bind(|c| c.0.to_string())),
        &in_func(&bind(|c| c.1.to_string())),
    );
}

use crate::support::SECTION1_BEFORE as SPEC_EXAMPLE;

#[test]
fn spec_section_1_example_is_canonical() {
    prints_as(SPEC_EXAMPLE, SPEC_EXAMPLE);
    // And its form after the pass (with a barrier) too.
    let after = crate::support::section1_after();
    prints_as(&after, &after);
}

#[test]
fn spec_example_reformatted_prints_canonically() {
    let messy = "// RUN: pfir opt %s\n\n\n  func   kernel ( )->task_id{return system.task_invalid()}\n\
        // a comment between functions\n\n\n\norchestration func main(\n n : i64 ,\n) -> task_id { manual { tids =\n array.create( 4 , task_id )\n\
        for p in parallel(4) { a, a_tid = submit kernel(deps=[tids, none]) b , b_tid = submit kernel(deps = [ tids ]) } } // trailing\n\
        return system.task_invalid() }\n";
    prints_as(messy, SPEC_EXAMPLE);
}

#[test]
fn empty_module_prints_nothing() {
    assert_eq!(canon(""), "");
    assert_eq!(canon("// only a comment\n\n"), "");
}

/// Spec section 2: spaces, tabs and newlines (also `\r\n`) only separate
/// tokens; a comment may end the file without a newline; section 9:
/// comments are not printed.
#[test]
fn whitespace_kinds_and_comments_do_not_change_the_output() {
    let canonical = "func f(n: i64) -> i64 {\n  x = n + 1\n  return x\n}\n";
    prints_as("// only a comment, no newline", "");
    prints_as("\t\r\n// a\r\n// b", "");
    prints_as(
        "func f(n: i64) -> i64 {\r\n  x = n + 1\r\n  return x\r\n}\r\n",
        canonical,
    );
    prints_as(
        "func\tf(n:\ti64)\t->\ti64\t{\n\tx\t=\tn\t+\t1\n\treturn\tx\n}",
        canonical,
    );
    prints_as(
        "// head\nfunc f(n: i64) -> i64 { // open\n  x = n + 1 // é ✓\n  return x\n} // end",
        canonical,
    );
    prints_as("func f(n: i64) -> i64 { x = n + 1 return x }", canonical);
}

#[test]
fn functions_are_separated_by_one_blank_line_and_end_with_one_newline() {
    prints_as(
        "func a() {}\n\n\n\nfunc b() {} func c() {\n\n}",
        "func a() {\n}\n\nfunc b() {\n}\n\nfunc c() {\n}\n",
    );
}

#[test]
fn function_headers_omit_opaque_and_in_and_empty_results() {
    prints_as(
        "opaque func a(in x: i64, out y: i64, inout z: array<task_id, n>, n: index,) {}\n\
         orchestration func b() -> (i64, task_id) { return 1, none }\n\
         incore func c() -> f32 { return 1.0 }\n\
         aic func d() {} aiv func e() {} group func g() {}",
        "func a(x: i64, out y: i64, inout z: array<task_id, n>, n: index) {\n}\n\n\
         orchestration func b() -> (i64, task_id) {\n  return 1, none\n}\n\n\
         incore func c() -> f32 {\n  return 1.0\n}\n\n\
         aic func d() {\n}\n\naiv func e() {\n}\n\ngroup func g() {\n}\n",
    );
}

#[test]
fn loop_bounds_print_in_shortest_form() {
    prints_as(
        &in_func(
            "for i in range(0, x, 1) {}\n\
             for i in range(0, x) {}\n\
             for i in parallel(2, x, 1) {}\n\
             for i in unroll(0, x, 2) {}\n\
             for i in range(x, 10) {}\n\
             for i in range(x, 10, -1) {}\n\
             for i in range(0 + 0, x, 1 * 1) {}\n",
        ),
        &in_func(
            "  for i in range(x) {\n  }\n\
             \x20 for i in range(x) {\n  }\n\
             \x20 for i in parallel(2, x) {\n  }\n\
             \x20 for i in unroll(0, x, 2) {\n  }\n\
             \x20 for i in range(x, 10) {\n  }\n\
             \x20 for i in range(x, 10, -1) {\n  }\n\
             \x20 for i in range(0 + 0, x, 1 * 1) {\n  }\n",
        ),
    );
}

#[test]
fn bindings_are_annotated_only_when_the_type_differs() {
    prints_as(
        &in_func(
            "  p: i64 = 1\n\
             \x20 q: i32 = 1\n\
             \x20 r: tensor<[64, x], f32> = tensor.load(x)\n\
             \x20 s = tensor.load(x)\n\
             \x20 u: i64, v: f32 = tensor.pair()\n\
             \x20 _, w = tensor.pair()\n\
             \x20 r1: i64, t1: task_id = submit k(1)\n\
             \x20 r2: i16, _ = submit k(1)\n\
             \x20 o1: i64, o2: u8 = for i in range(4) iter(acc: i64 = 0, n: u8 = 0) {\n    yield acc, n\n  }\n\
             \x20 w1: i32 = while m < 3 iter(m: i32 = 0) {\n    yield m + 1\n  }\n\
             \x20 w2 = while m < 3 iter(m = x) {\n    yield m\n  }\n\
             \x20 f1: f32, f2: i8 = if b {\n    yield 1.5, 2\n  } else {\n    yield 2.5, 3\n  }\n",
        ),
        &in_func(
            "  p = 1\n\
             \x20 q: i32 = 1\n\
             \x20 r: tensor<[64, x], f32> = tensor.load(x)\n\
             \x20 s = tensor.load(x)\n\
             \x20 u: i64, v: f32 = tensor.pair()\n\
             \x20 _, w = tensor.pair()\n\
             \x20 r1, t1 = submit k(1)\n\
             \x20 r2: i16, _ = submit k(1)\n\
             \x20 o1, o2 = for i in range(4) iter(acc = 0, n: u8 = 0) {\n    yield acc, n\n  }\n\
             \x20 w1 = while m < 3 iter(m: i32 = 0) {\n    yield m + 1\n  }\n\
             \x20 w2 = while m < 3 iter(m = x) {\n    yield m\n  }\n\
             \x20 f1, f2: i8 = if b {\n    yield 1.5, 2\n  } else {\n    yield 2.5, 3\n  }\n",
        ),
    );
}

#[test]
fn submit_keyword_arguments_print_in_order_without_defaults() {
    prints_as(
        &in_func(
            "  r, t1 = submit k(x, predicate=(x > 0), allow_early_resolve=true, sync_start=true, core_num=2, deps=[none, t, ts])\n\
             \x20 r2, t2 = submit k(x, deps=[none], sync_start=false, allow_early_resolve=false)\n\
             \x20 r3, t3 = submit k(x, predicate=((b)))\n\
             \x20 bar = system.task_dummy(deps=[t1, none, ts])\n\
             \x20 tensor.foo(x, mode=1, fast=b)\n\
             \x20 tensor.bar(zeta=[1, 2], alpha=x)\n",
        ),
        &in_func(
            "  r, t1 = submit k(x, deps=[t, ts], core_num=2, sync_start=true, allow_early_resolve=true, predicate=(x > 0))\n\
             \x20 r2, t2 = submit k(x)\n\
             \x20 r3, t3 = submit k(x, predicate=(b))\n\
             \x20 bar = system.task_dummy(deps=[t1, ts])\n\
             \x20 tensor.foo(x, mode=1, fast=b)\n\
             \x20 tensor.bar(zeta=[1, 2], alpha=x)\n",
        ),
    );
}

#[test]
fn else_holding_only_an_if_prints_as_else_if() {
    prints_as(
        &in_func(
            "  if b { tensor.a() } else { if c { tensor.b() } else { if x == 1 { } } }\n\
             \x20 if b { } else { if c { } tensor.c() }\n\
             \x20 if b { } else if c { } else { }\n\
             \x20 if b { }\n",
        ),
        &in_func(
            "  if b {\n    tensor.a()\n  } else if c {\n    tensor.b()\n  } else if x == 1 {\n  }\n\
             \x20 if b {\n  } else {\n    if c {\n    }\n    tensor.c()\n  }\n\
             \x20 if b {\n  } else if c {\n  } else {\n  }\n\
             \x20 if b {\n  }\n",
        ),
    );
}

#[test]
fn expressions_keep_only_needed_parentheses() {
    let cases = [
        ("(x - y) - x", "x - y - x"),
        ("x - (y - x)", "x - (y - x)"),
        ("((x + y)) * x", "(x + y) * x"),
        ("x + (y * x)", "x + y * x"),
        ("x * (y / x)", "x * (y / x)"),
        ("(x % y) / x", "x % y / x"),
        ("(-x) * y", "-x * y"),
        ("-(x * y)", "-(x * y)"),
        ("x - (-y)", "x - -y"),
        ("-(-x)", "--x"),
        ("(x < y) == b", "(x < y) == b"),
        ("b == (x < y)", "b == (x < y)"),
        ("(x + y) <= x", "x + y <= x"),
        ("not (x == y)", "not x == y"),
        ("b == (not c)", "b == (not c)"),
        ("not (b and c)", "not (b and c)"),
        ("(not b) and c", "not b and c"),
        ("not (not b)", "not not b"),
        ("(b and c) or b", "b and c or b"),
        ("(b or c) and b", "(b or c) and b"),
        ("b or (c or b)", "b or (c or b)"),
        ("(b or c) or b", "b or c or b"),
        ("b and (c and b)", "b and (c and b)"),
        ("-(tensor.get() + 1)", "-(tensor.get() + 1)"),
    ];
    prints_each_as(&cases);
}

#[test]
fn floats_print_in_shortest_round_tripping_form() {
    let cases = [
        ("1.50", "1.5"),
        ("0.001", "0.001"),
        ("1e-7", "1e-7"),
        ("1E-7", "1e-7"),
        ("1e100", "1e100"),
        ("1e+100", "1e100"),
        ("2.5E4", "25000.0"),
        ("1E+5", "100000.0"),
        ("100.0", "100.0"),
        ("123456789012345678.0", "1.2345678901234568e17"),
        ("0.30000000000000004", "0.30000000000000004"),
        ("0.0", "0.0"),
        ("0e0", "0.0"),
        ("1.7976931348623157e308", "1.7976931348623157e308"),
        ("5e-324", "5e-324"),
    ];
    prints_each_as(&cases);
}

#[test]
fn scopes_statements_and_literals() {
    prints_as(
        &in_func(
            "  manual { } manual \"stage \\\"1\\\" \\\\ end\" { } auto { z = 1 } auto \"a\" { }\n\
             \x20 z2 = z\n\
             \x20 n = none d = array.create(x, bf16) tr = true fa = false\n\
             \x20 l = tensor.cat([x, y], [])\n\
             \x20 k(1)\n\
             \x20 for i in range(3) { if b { break } else { continue } }\n\
             \x20 return\n",
        ),
        &in_func(
            "  manual {\n  }\n\
             \x20 manual \"stage \\\"1\\\" \\\\ end\" {\n  }\n\
             \x20 auto {\n    z = 1\n  }\n\
             \x20 auto \"a\" {\n  }\n\
             \x20 z2 = z\n\
             \x20 n = none\n\
             \x20 d = array.create(x, bf16)\n\
             \x20 tr = true\n\
             \x20 fa = false\n\
             \x20 l = tensor.cat([x, y], [])\n\
             \x20 k(1)\n\
             \x20 for i in range(3) {\n    if b {\n      break\n    } else {\n      continue\n    }\n  }\n\
             \x20 return\n",
        ),
    );
}

#[test]
fn long_lines_are_never_wrapped() {
    let args: Vec<String> = (0..200).map(|i| format!("x + {i}")).collect();
    let line = format!("  tensor.wide({})\n", args.join(", "));
    prints_as(&in_func(&line), &in_func(&line));
}

#[test]
fn shadowed_names_keep_their_identity() {
    // Rebinding creates a new variable; uses refer to the latest in scope.
    let text = in_func(
        "  v = 1\n  w = v\n  v = 2\n  for i in range(v) {\n    v = i\n    tensor.use(v, w)\n  }\n  tensor.use(v)\n",
    );
    prints_as(&text, &text);
}

#[test]
fn every_construct_round_trips() {
    let text = "\
func kernel(a: i64, inout buf: tensor<[16, n], f16>, out res: array<task_id, 8>, n: index) -> (i64, task_id) {
  return a, system.task_invalid()
}

func plain() {
}

orchestration func main(n: i64, t: tensor<[16, n], f16>, flag: bool) -> task_id {
  manual \"stage1\" {
    tids = array.create(8, task_id)
    dyn = array.create(n, task_id)
    dyn2: array<task_id, 4> = array.create(n, task_id)
    first = array.get_element(tids, 0)
    upd = array.update_element(tids, 1, first)
    v, r, tid = submit kernel(1, t, tids, 16, deps=[tids, dyn], core_num=4, sync_start=true, allow_early_resolve=true, predicate=(n > 0))
    _, _, _ = submit kernel(3, t, tids, 16)
    barrier = system.task_dummy(deps=[tids, tid])
    x = -n * (2 + 3) % 7 - 1 / 2
    y = not flag and x >= 1 or x != 2 and x < 3 or x <= 4 and x == 5 or x > 6
    f = 1500.0 + 0.25
    s = tensor.slice(t, [0, 4], mode=1)
    tensor.store(s, t)
    plain()
    for i in range(4) {
      if i == 2 {
        continue
      } else if i == 3 {
        break
      } else {
        plain()
      }
    }
    total = for j in range(10, 0, -2) iter(acc = 0) {
      acc2 = acc + j
      yield acc2
    }
    u = for k in unroll(2, 4) iter(a: i32 = 0) {
      yield a
    }
    count, other = while count_in < 10 iter(count_in = 0, o: f64 = 1.0) {
      next = count_in + 1
      yield next, o
    }
    pick = if flag {
      yield 1
    } else {
      yield 2
    }
    auto {
      for p in parallel(n) {
        q, q2, q_tid = submit kernel(p, t, tids, 16, deps=[tids])
      }
    }
  }
  return system.task_invalid()
}
";
    prints_as(text, text);
}

/// `depth` nested `for` loops on one line, then their canonical form.
fn nested_loops(depth: usize) -> (String, String) {
    let input = format!(
        "func deep(x: i64) {{\n{}y = x + 1{}\n}}\n",
        "for i in range(2) {".repeat(depth),
        "}".repeat(depth)
    );
    let mut expected = String::from("func deep(x: i64) {\n");
    for level in 1..=depth {
        expected.push_str(&"  ".repeat(level));
        expected.push_str("for i in range(2) {\n");
    }
    expected.push_str(&"  ".repeat(depth + 1));
    expected.push_str("y = x + 1\n");
    for level in (1..=depth).rev() {
        expected.push_str(&"  ".repeat(level));
        expected.push_str("}\n");
    }
    expected.push_str("}\n");
    (input, expected)
}

#[test]
fn ten_thousand_nested_loops_print_without_overflow() {
    // The canonical form of 10,000 nested blocks is 200 MB of indentation
    // (indentation grows with depth), so this checks printing only; the full
    // round trip runs below at a smaller depth and, in release builds, in
    // the ignored test after it.
    let (input, expected) = nested_loops(10_000);
    let printed = print(&read(&input));
    assert!(printed == expected, "deep nesting printed wrongly");
}

#[test]
fn nested_loops_round_trip() {
    let (input, expected) = nested_loops(1_000);
    let printed = canon(&input);
    assert!(printed == expected, "deep nesting printed wrongly");
}

/// 10,000 nested loops print (200 MB of text) and read back.
#[test]
fn ten_thousand_nested_loops_round_trip() {
    let (input, expected) = nested_loops(10_000);
    let printed = canon(&input);
    assert!(printed == expected, "deep nesting printed wrongly");
}

#[test]
fn deep_expressions_and_else_if_chains_round_trip() {
    let depth = 10_000;
    let right = format!("{}x - x{}", "x - (".repeat(depth), ")".repeat(depth));
    let left = format!("x{}", " + x".repeat(depth));
    let neg = format!("{}x", "-".repeat(depth));
    let mut chain = String::from("  if x == 0 {\n");
    for i in 1..depth {
        chain.push_str(&format!("  }} else if x == {i} {{\n"));
    }
    chain.push_str("  }\n");
    let text = in_func(&format!(
        "  r = {right}\n  l = {left}\n  n = {neg}\n{chain}"
    ));
    let printed = canon(&text);
    assert!(printed == text, "deep expressions printed wrongly");
}

mod random_expressions {
    //! Random fully parenthesised expressions: the printed form means the
    //! same (reads back to equal IR) and every parenthesis pair it keeps is
    //! needed (removing it changes the IR or makes the text unreadable).

    use super::*;
    use proptest::prelude::*;

    fn int_expr() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            Just("x".to_string()),
            Just("y".to_string()),
            (0i64..20).prop_map(|n| n.to_string()),
            Just("tensor.get()".to_string()),
        ];
        leaf.prop_recursive(6, 48, 2, |inner| {
            prop_oneof![
                (
                    inner.clone(),
                    proptest::sample::select(&["+", "-", "*", "/", "%"][..]),
                    inner.clone()
                )
                    .prop_map(|(a, op, b)| format!("({a} {op} {b})")),
                inner.prop_map(|a| format!("(-{a})")),
            ]
        })
    }

    fn bool_expr() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            Just("b".to_string()),
            Just("c".to_string()),
            Just("true".to_string()),
            (
                int_expr(),
                proptest::sample::select(&["==", "!=", "<", "<=", ">", ">="][..]),
                int_expr()
            )
                .prop_map(|(a, op, b)| format!("({a} {op} {b})")),
        ];
        leaf.prop_recursive(5, 32, 2, |inner| {
            prop_oneof![
                (
                    inner.clone(),
                    proptest::sample::select(&["and", "or", "==", "!="][..]),
                    inner.clone()
                )
                    .prop_map(|(a, op, b)| format!("({a} {op} {b})")),
                inner.prop_map(|a| format!("(not {a})")),
            ]
        })
    }

    fn func_with(expr: &str) -> String {
        format!("func f(x: i64, y: i64, b: bool, c: bool) {{\n  e = {expr}\n}}\n")
    }

    /// The byte ranges of grouping parentheses (not call parentheses) in `s`.
    fn grouping_pairs(s: &str) -> Vec<(usize, usize)> {
        let bytes = s.as_bytes();
        let mut open = Vec::new();
        let mut pairs = Vec::new();
        for (i, c) in bytes.iter().enumerate() {
            match c {
                b'(' => {
                    let call =
                        i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
                    open.push((i, call));
                }
                b')' => {
                    let (start, call) = open.pop().expect("balanced");
                    if !call {
                        pairs.push((start, i));
                    }
                }
                _ => {}
            }
        }
        pairs
    }

    fn check(expr: &str) -> Result<(), TestCaseError> {
        let text = func_with(expr);
        let first = read(&text);
        let printed = canon(&text);
        let second = read(&printed);
        prop_assert!(modules_equal(&first, &second).is_ok());
        let line = printed.lines().nth(1).unwrap();
        for (open, close) in grouping_pairs(line) {
            let mut fewer = line.to_string();
            fewer.replace_range(close..close + 1, "");
            fewer.replace_range(open..open + 1, "");
            let candidate = printed.replace(line, &fewer);
            if let (Some(m), _) = pfir::parse(&candidate).into_parts() {
                prop_assert!(
                    modules_equal(&first, &m).is_err(),
                    "redundant parentheses in `{}`: `{}` means the same",
                    line,
                    fewer
                );
            }
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn int_expressions(e in int_expr()) {
            check(&e)?;
        }

        #[test]
        fn bool_expressions(e in bool_expr()) {
            check(&e)?;
        }
    }
}
