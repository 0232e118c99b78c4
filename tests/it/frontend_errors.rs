//! One test per rejection class of spec section 8: the message, the span
//! (line and column of the primary label) and, through the real binary, the
//! exit status and all three `--diagnostic-format`s.

use pfir::diagnostics::{Applicability, Code, NoteKind};

const KERNEL: &str = "func kernel(x: i64) -> task_id {\n  return system.task_invalid()\n}\n";

/// `(name, source, message fragment, line, column)`: the first error must
/// contain the fragment and start at `line:column` (1-based). `{k}` at the
/// start of a source stands for `KERNEL`.
const CASES: &[(&str, &str, &str, usize, usize)] = &[
    (
        "syntax_error",
        "func f() {\n  x = = 1\n}\n",
        "unexpected `=`",
        2,
        7,
    ),
    (
        "syntax_expected_tokens",
        "func f( {\n}\n",
        "unclosed delimiter `(`",
        1,
        7,
    ),
    (
        "unexpected_character",
        "func f() {\n  x = $\n}\n",
        "unexpected character",
        2,
        7,
    ),
    (
        "unterminated_string",
        "func f() {\n  manual \"abc {\n  }\n}\n",
        "unterminated string",
        2,
        10,
    ),
    (
        "unknown_variable",
        "func f() {\n  tids = 1\n  x = tid + 1\n}\n",
        "unknown variable `tid`",
        3,
        7,
    ),
    (
        "unknown_function_call",
        "func f() {\n  x = g(1)\n}\n",
        "unknown function `g`",
        2,
        7,
    ),
    (
        "unknown_function_submit",
        "func f() {\n  t = submit kernal(1)\n}\n",
        "unknown function `kernal`",
        2,
        14,
    ),
    (
        "duplicate_function",
        "{k}func kernel() {\n}\n",
        "duplicate function `kernel`",
        4,
        6,
    ),
    (
        "submit_of_non_function",
        "func f(n: i64) {\n  t = submit n()\n}\n",
        "`n` is a variable, not a function",
        2,
        14,
    ),
    (
        "submit_of_op",
        "func f() {\n  t = submit array.create(4, task_id)\n}\n",
        "`array.create` is an op, not a function",
        2,
        14,
    ),
    (
        "argument_count",
        "{k}func f() {\n  a, t = submit kernel(1, 2)\n}\n",
        "`kernel` takes 1 argument, but 2 were given",
        5,
        10,
    ),
    (
        "call_argument_count",
        "{k}func f() {\n  a = kernel()\n}\n",
        "`kernel` takes 1 argument, but 0 were given",
        5,
        7,
    ),
    (
        "binding_count_submit",
        "{k}func f() {\n  t = submit kernel(1)\n}\n",
        "produces 2 values",
        5,
        3,
    ),
    (
        "binding_count_call",
        "{k}func f() {\n  a, b = kernel(1)\n}\n",
        "`kernel` returns 1 value, but 2 bindings are given",
        5,
        3,
    ),
    (
        "deps_entry_type",
        "{k}func f() {\n  a, t = submit kernel(1, deps=[1.5])\n}\n",
        "a `deps=` entry must be `task_id`, `array<task_id, N>` or `none`",
        5,
        33,
    ),
    (
        "deps_on_plain_call",
        "{k}func f() {\n  a = kernel(1, deps=[])\n}\n",
        "`deps=` is not allowed on a plain call of `kernel`",
        5,
        17,
    ),
    (
        "deps_on_op_call",
        "func f() {\n  a = tensor.load(1, deps=[])\n}\n",
        "`deps=` is not allowed on a plain call of `tensor.load`",
        2,
        22,
    ),
    (
        "body_must_yield",
        "func f() {\n  x = for i in range(3) iter(a = 0) {\n    b = a\n  }\n}\n",
        "this body must end with `yield` of 1 value",
        4,
        3,
    ),
    (
        "yield_wrong_count",
        "func f() {\n  x = for i in range(3) iter(a = 0) {\n    yield a, a\n  }\n}\n",
        "this body must yield 1 value, but yields 2",
        3,
        5,
    ),
    (
        "if_yield_wrong_count",
        "func f(c: bool) {\n  x = if c {\n    yield 1\n  } else {\n    yield\n  }\n}\n",
        "this body must yield 1 value, but yields 0",
        5,
        5,
    ),
    (
        "yield_outside_body",
        "func f() {\n  yield 1\n}\n",
        "`yield` outside a loop",
        2,
        3,
    ),
    (
        "yield_not_last",
        "func f() {\n  x = for i in range(3) iter(a = 0) {\n    yield a\n    b = 1\n  }\n}\n",
        "`yield` must be the last statement",
        3,
        5,
    ),
    (
        "break_outside_loop",
        "func f() {\n  manual {\n    break\n  }\n}\n",
        "`break` outside a loop",
        3,
        5,
    ),
    (
        "continue_outside_loop",
        "func f(c: bool) {\n  if c {\n    continue\n  }\n}\n",
        "`continue` outside a loop",
        3,
        5,
    ),
    (
        "loop_bound_not_integer",
        "func f() {\n  for i in range(0, 2.5) {\n  }\n}\n",
        "loop bound must be an integer",
        2,
        21,
    ),
    (
        "condition_not_bool",
        "func f(n: i64) {\n  if n + 1 {\n  }\n}\n",
        "`if` condition must be `bool`",
        2,
        6,
    ),
    (
        "while_condition_not_bool",
        "func f(n: i64) {\n  while n {\n  }\n}\n",
        "`while` condition must be `bool`",
        2,
        9,
    ),
    (
        "integer_out_of_range",
        "func f() {\n  x = 9223372036854775808\n}\n",
        "integer literal out of range",
        2,
        7,
    ),
    (
        "type_extent_out_of_range",
        "func f(a: array<task_id, 99999999999999999999>) {\n}\n",
        "integer literal out of range",
        1,
        26,
    ),
    (
        "loop_results_without_bindings",
        "func f() {\n  for i in range(3) iter(a = 0) {\n    yield a\n  }\n}\n",
        "binds no results",
        2,
        3,
    ),
    (
        "if_binding_without_else",
        "func f(c: bool) {\n  x = if c {\n    yield 1\n  }\n}\n",
        "needs an `else` branch",
        2,
        7,
    ),
    (
        "annotation_mismatch",
        "func f() {\n  x: task_id = 1\n}\n",
        "type mismatch: `x` is annotated `task_id` but the value is `i64`",
        2,
        6,
    ),
    (
        "submit_unknown_kwarg",
        "{k}func f() {\n  a, t = submit kernel(1, dep=[])\n}\n",
        "unknown keyword argument `dep` for `submit`",
        5,
        27,
    ),
    (
        "submit_duplicate_kwarg",
        "{k}func f() {\n  a, t = submit kernel(1, core_num=1, core_num=2)\n}\n",
        "keyword argument `core_num` given twice",
        5,
        39,
    ),
    (
        "positional_after_keyword",
        "func f() {\n  x = tensor.load(mode=1, 2)\n}\n",
        "positional argument after keyword arguments",
        2,
        27,
    ),
    (
        "range_too_many_arguments",
        "func f() {\n  for i in range(1, 2, 3, 4) {\n  }\n}\n",
        "takes 1 to 3 arguments",
        2,
        12,
    ),
    (
        "argument_type",
        "{k}func f() {\n  a, t = submit kernel(true)\n}\n",
        "argument `x` must be `i64`",
        5,
        24,
    ),
    (
        "return_count",
        "func f() -> i64 {\n  return\n}\n",
        "`f` returns 1 value, but this `return` has 0",
        2,
        3,
    ),
];

/// The cases, `KERNEL` in place.
fn cases() -> Vec<(&'static str, String, &'static str, usize, usize)> {
    CASES
        .iter()
        .map(|&(name, src, fragment, line, col)| {
            let src = match src.strip_prefix("{k}") {
                Some(rest) => format!("{KERNEL}{rest}"),
                None => src.to_string(),
            };
            (name, src, fragment, line, col)
        })
        .collect()
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().unwrap().chars().count() + 1;
    (line, col)
}

#[test]
fn every_rejection_class_has_message_and_span() {
    let mut failures = Vec::new();
    for (name, src, fragment, line, col) in cases() {
        let (module, diags) = pfir::parse(&src).into_parts();
        if module.is_some() {
            failures.push(format!("{name}: accepted"));
            continue;
        }
        let Some(first) = diags.iter().find(|d| d.is_error()) else {
            failures.push(format!("{name}: rejected without an error diagnostic"));
            continue;
        };
        if !first.message.contains(fragment) {
            failures.push(format!(
                "{name}: message {:?} lacks {:?}",
                first.message, fragment
            ));
        }
        let at = line_col(&src, first.primary.span.start());
        if at != (line, col) {
            failures.push(format!(
                "{name}: error at {}:{}, expected {line}:{col} ({:?})",
                at.0, at.1, first.message
            ));
        }
        if first.primary.span.end() > src.len()
            || first.primary.span.start() > first.primary.span.end()
        {
            failures.push(format!(
                "{name}: span {:?} is not inside the file",
                first.primary.span
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn run_pfir(args: &[&str], stdin: &str) -> (i32, String, String) {
    run_pfir_bytes(args, stdin.as_bytes())
}

fn run_pfir_bytes(args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    crate::support::pfir_with_input(args, stdin)
}

#[test]
fn every_rejection_class_in_all_three_formats_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for (name, src, fragment, line, col) in cases() {
        let path = dir.path().join(format!("{name}.pfir"));
        std::fs::write(&path, &src).unwrap();
        let p = path.to_str().unwrap();
        let location = format!("{p}:{line}:{col}");

        let (code, stdout, stderr) = run_pfir(&["opt", p, "--diagnostic-format=short"], "");
        if code != 1 || !stdout.is_empty() {
            failures.push(format!("{name}: short: exit {code}, stdout {stdout:?}"));
        }
        let first = stderr.lines().next().unwrap_or("");
        // Every error carries its code: `error[E0010]: `.
        let coded = first
            .strip_prefix(&format!("{location}: error[E"))
            .is_some_and(|rest| {
                rest.len() > 6
                    && rest[..4].bytes().all(|b| b.is_ascii_digit())
                    && rest[4..].starts_with("]: ")
            });
        if !coded || !first.contains(fragment) {
            failures.push(format!(
                "{name}: short: first line {first:?}, expected {location}: error[E....]: ...{fragment}"
            ));
        }

        let (code, _, stderr) = run_pfir(&["opt", p, "--diagnostic-format=human"], "");
        if code != 1
            || !stderr.contains(&format!("┌─ {location}"))
            || !stderr.contains(fragment)
            || !stderr.contains("error")
        {
            failures.push(format!("{name}: human: exit {code}, stderr {stderr}"));
        }
        if stderr.contains('\x1b') {
            failures.push(format!(
                "{name}: human output to a pipe carries colour codes"
            ));
        }

        let (code, _, stderr) = run_pfir(&["opt", p, "--diagnostic-format=json"], "");
        let obj: serde_json::Value = match stderr.lines().next().map(serde_json::from_str) {
            Some(Ok(v)) => v,
            _ => {
                failures.push(format!("{name}: json: not JSON: {stderr}"));
                continue;
            }
        };
        let ok = code == 1
            && obj["severity"] == "error"
            && obj["code"]
                .as_str()
                .is_some_and(|c| pfir::diagnostics::Code::parse(c).is_some())
            && obj["message"]
                .as_str()
                .is_some_and(|m| m.contains(fragment))
            && obj["file"] == p
            && obj["line"] == line
            && obj["column"] == col
            && obj["labels"].as_array().is_some_and(|l| !l.is_empty())
            && obj["end"].as_u64() >= obj["start"].as_u64();
        if !ok {
            failures.push(format!("{name}: json: exit {code}, {obj}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn independent_syntax_errors_are_all_reported() {
    let src = "func a() {\n  x = = 1\n  y = 2\n}\nfunc b() {\n  w = foo(1,, 2)\n}\nfunc c( {\n}\nfunc d() {\n  q = $\n}\nfunc e( {\n}\n";
    let (module, diags) = pfir::parse(src).into_parts();
    assert!(module.is_none());
    let lines: Vec<usize> = diags
        .iter()
        .map(|d| line_col(src, d.primary.span.start()).0)
        .collect();
    assert_eq!(lines, vec![2, 6, 8, 11, 13], "{diags:#?}");
    // Each names what was expected, or the bracket that was never closed.
    assert!(diags.iter().all(|d| {
        d.notes
            .iter()
            .any(|n| n.kind == NoteKind::Note && n.message.starts_with("expected "))
            || d.code == Some(Code::UnclosedDelimiter)
    }));
}

#[test]
fn unknown_variable_suggests_a_close_name() {
    let src = "func f() {\n  tids = 1\n  x = tid\n}\n";
    let (_, diags) = pfir::parse(src).into_parts();
    let fix = &diags[0].suggestions[0];
    assert_eq!(fix.message, "did you mean `tids`?", "{diags:#?}");
    assert_eq!(fix.replacement, "tids");
    assert_eq!(&src[fix.span.range()], "tid");
    assert_eq!(fix.applicability, Applicability::MaybeIncorrect);
    assert_eq!(diags[0].code, Some(Code::UnknownVariable));
}

#[test]
fn deps_on_plain_call_hints_at_submit() {
    let src = format!("{KERNEL}func f() {{\n  a = kernel(1, deps=[])\n}}\n");
    let (_, diags) = pfir::parse(&src).into_parts();
    let fix = &diags[0].suggestions[0];
    assert_eq!(
        fix.message, "launch `kernel` as a task with `submit kernel(...)`",
        "{diags:#?}"
    );
    assert_eq!(
        (fix.replacement.as_str(), fix.span.start(), fix.span.end()),
        (
            "submit ",
            src.find("kernel(1").unwrap(),
            src.find("kernel(1").unwrap()
        )
    );
    assert!(
        diags[0]
            .notes
            .iter()
            .all(|n| !n.message.contains("ManualDeps")),
        "{diags:#?}"
    );
    // An op cannot be submitted: the hint says what can carry deps instead.
    let (_, diags) = pfir::parse("func f() {\n  a = tensor.load(1, deps=[])\n}\n").into_parts();
    assert!(
        diags[0]
            .notes
            .iter()
            .any(|n| n.message.contains("system.task_dummy(deps=[...])")
                && !n.message.contains("submit tensor.load")),
        "{diags:#?}"
    );
}

#[test]
fn duplicate_function_points_at_the_first_definition() {
    let src = format!("{KERNEL}func kernel() {{\n}}\n");
    let (_, diags) = pfir::parse(&src).into_parts();
    assert_eq!(diags[0].secondary.len(), 1);
    assert_eq!(line_col(&src, diags[0].secondary[0].span.start()), (1, 6));
}

#[test]
fn usage_errors_exit_2() {
    let (code, _, stderr) = run_pfir(&["opt", "--passes=no-such-pass", "-"], "");
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("unknown pass 'no-such-pass'"), "{stderr}");
    let (code, _, _) = run_pfir(&["opt", "--no-such-flag"], "");
    assert_eq!(code, 2);
    let (code, _, _) = run_pfir(&["frobnicate"], "");
    assert_eq!(code, 2);
}

/// Spec sections 2 and 8: source is UTF-8, and a rejected input gets a
/// diagnostic with file, line and column in the requested format. Non-UTF-8
/// input used to get a bare `error:` line (not JSON under
/// `--diagnostic-format=json`, no line or column).
#[test]
fn non_utf8_input_gets_a_positioned_diagnostic_in_every_format() {
    let input: &[u8] = b"func main() {\n  manual \"\xff\xfe\" {\n  }\n}\n";
    let (code, stdout, stderr) = run_pfir_bytes(&["opt", "--diagnostic-format=short"], input);
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    assert_eq!(
        stderr,
        "<stdin>:2:11: error[E0008]: input is not valid UTF-8\n\
         <stdin>:2:11: note: .pfir source text must be UTF-8\n"
    );
    let (code, _, stderr) = run_pfir_bytes(&["opt", "--diagnostic-format=json"], input);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    let line = stderr.lines().next().unwrap();
    for field in [
        r#""line":2"#,
        r#""column":11"#,
        r#""start":24"#,
        r#""severity":"error""#,
        r#""file":"<stdin>""#,
    ] {
        assert!(line.contains(field), "{field} missing in {line}");
    }
    let (code, _, stderr) = run_pfir_bytes(&["opt"], input);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("invalid byte at offset 24"), "{stderr}");
    // A truncated multi-byte sequence at the very end of the input.
    let (code, _, stderr) = run_pfir_bytes(&["opt", "--diagnostic-format=short"], b"\xc3");
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.starts_with("<stdin>:1:1: error[E0008]: input is not valid UTF-8"),
        "{stderr}"
    );
}

/// A file that does not exist (or is a directory) is an error, exit 1.
#[test]
fn unreadable_input_exits_1() {
    for path in ["/nonexistent/pfir-input.pfir", "/"] {
        let (code, stdout, stderr) = run_pfir(&["opt", path], "");
        assert_eq!(code, 1, "{path}: {stderr}");
        assert!(stdout.is_empty());
        assert!(
            stderr.starts_with(&format!("error[E0024]: cannot read '{path}'")),
            "{stderr}"
        );
    }
}

#[test]
fn valid_input_exits_0_and_reads_stdin() {
    let (code, _, stderr) = run_pfir(&["opt", "-"], "func f() {\n}\n");
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.is_empty());
}

#[test]
fn help_lists_every_pass_and_version_prints() {
    let (code, stdout, _) = run_pfir(&["opt", "--help"], "");
    assert_eq!(code, 0);
    for name in pfir::passes::known_passes() {
        assert!(
            stdout.contains(name),
            "`pfir opt --help` does not list {name}"
        );
    }
    for flag in [
        "--diagnostic-format",
        "--split-input-file",
        "--verify-diagnostics",
        "--verify-deps",
        "--remarks",
        "--stats",
    ] {
        assert!(
            stdout.contains(flag),
            "`pfir opt --help` does not describe {flag}"
        );
    }
    let (code, stdout, _) = run_pfir(&["--version"], "");
    assert_eq!(code, 0);
    assert_eq!(stdout.trim(), format!("pfir {}", env!("CARGO_PKG_VERSION")));
}

#[test]
fn output_file_is_written_atomically_and_kept_on_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.pfir");
    std::fs::write(&out, "precious\n").unwrap();
    // A rejected input writes nothing: the old file survives.
    let (code, _, _) = run_pfir(&["opt", "-", "-o", out.to_str().unwrap()], "func f( {\n");
    assert_eq!(code, 1);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "precious\n");
    let (code, _, stderr) = run_pfir(
        &["opt", "-", "-o", out.to_str().unwrap()],
        "func f() {\n}\n",
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "func f() {\n}\n");
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(
        leftovers.len(),
        1,
        "temporary files left behind: {leftovers:?}"
    );
    // A device is written directly (it cannot be replaced by a rename).
    let (code, _, stderr) = run_pfir(&["opt", "-", "-o", "/dev/null"], "func f() {\n}\n");
    assert_eq!(code, 0, "{stderr}");
    // An unwritable target is an error, not a panic.
    let (code, _, stderr) = run_pfir(
        &["opt", "-", "-o", "/nonexistent-dir/x.pfir"],
        "func f() {\n}\n",
    );
    assert_eq!(code, 1);
    assert!(stderr.contains("cannot write"), "{stderr}");
}

/// `--split-input-file`: a chunk with errors prints nothing, the others
/// print joined by `// -----`; diagnostics keep whole-file lines; the exit
/// status is 1. A `\r\n` separator line splits too.
#[test]
fn split_input_file_prints_good_chunks_and_fails_on_a_bad_one() {
    let input = "func a() {\n}\n// -----\nfunc b() {\n  x = y\n}\n// -----\r\nfunc c() {\n}\n";
    let (code, stdout, stderr) = run_pfir(
        &[
            "opt",
            "-",
            "--split-input-file",
            "--diagnostic-format=short",
        ],
        input,
    );
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(stdout, "func a() {\n}\n// -----\nfunc c() {\n}\n");
    assert_eq!(stderr, "<stdin>:5:7: error[E0010]: unknown variable `y`\n");
    let (code, stdout, stderr) = run_pfir(
        &["opt", "-", "--split-input-file", "--diagnostic-format=json"],
        input,
    );
    assert_eq!(code, 1);
    assert_eq!(stdout, "func a() {\n}\n// -----\nfunc c() {\n}\n");
    assert!(
        stderr.contains(r#""line":5,"#) && stderr.contains(r#""start":39"#),
        "{stderr}"
    );
}

#[test]
fn chained_comparisons_get_a_hint() {
    let (_, diags) = pfir::parse("func f(a: i64) {\n  x = a < a < a\n}\n").into_parts();
    assert_eq!(diags[0].message, "unexpected `<`");
    assert!(
        diags[0]
            .notes
            .iter()
            .any(|n| n.kind == NoteKind::Help && n.message.starts_with("comparisons do not chain")),
        "{diags:#?}"
    );
    // A comparison operator where an expression must start is a plain syntax error.
    let (_, diags) = pfir::parse("func f(a: i64) {\n  x = < a\n}\n").into_parts();
    assert!(
        !diags[0].notes.iter().any(|n| n.message.contains("chain")),
        "{diags:#?}"
    );
}

/// "Did you mean" searches scan every name in scope, so they are capped per
/// function: a file full of unknown names stays linear. Every unknown name is
/// still reported; only the first searches carry a suggestion.
#[test]
fn did_you_mean_searches_are_capped_per_function() {
    let mut src = String::from("func f() {\n  total = 1\n");
    for i in 0..150 {
        src.push_str(&format!("  y{i} = totl + 1\n"));
    }
    src.push_str("}\n");
    let (module, diags) = pfir::parse(&src).into_parts();
    assert!(module.is_none());
    let unknown: Vec<_> = diags
        .iter()
        .filter(|d| d.message.contains("unknown variable `totl`"))
        .collect();
    assert_eq!(unknown.len(), 150);
    let suggested = unknown
        .iter()
        .filter(|d| d.suggestions.iter().any(|s| s.replacement == "total"))
        .count();
    assert_eq!(suggested, pfir::limits::MAX_SUGGESTION_SEARCHES);
}

#[test]
fn out_of_scope_uses_name_the_line_with_lone_carriage_returns() {
    // Lines end at a lone `\r` for the lowering's "at line N" as for the
    // editor and the diagnostic's own position (line 3 holds the loop).
    let text = "func k() {\r}\rfunc main() {\r  for i in range(4) {\r    t = submit k()\r  }\r  u = submit k(deps=[t])\r}\r";
    let (code, _, err) = run_pfir(&["check", "-", "--color=never"], text);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("defined inside the loop at line 4;"), "{err}");
    assert!(err.contains("<stdin>:7:") || err.contains(":7:"), "{err}");
}
