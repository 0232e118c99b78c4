use super::format_text;

fn fmt(src: &str) -> String {
    format_text(src).unwrap_or_else(|d| panic!("{src}: {d:?}"))
}

/// Formats `src` and checks the result is a fixpoint.
fn fmt_idem(src: &str) -> String {
    let once = fmt(src);
    assert_eq!(fmt(&once), once, "not idempotent for:\n{src}");
    once
}

#[test]
fn leading_and_trailing_comments_of_statements() {
    let src = "func f() {\n  // above a\n    a = 1    // after a\n  b = 2\n}\n";
    assert_eq!(
        fmt_idem(src),
        "func f() {\n  // above a\n  a = 1 // after a\n  b = 2\n}\n"
    );
}

#[test]
fn comment_before_else_goes_above_the_else_line() {
    let src = "func f(c: bool) {\n  if c {\n    a = 1\n  }\n  // before else\n  else { // in else\n    b = 2\n  }\n}\n";
    assert_eq!(
        fmt_idem(src),
        "func f(c: bool) {\n  if c {\n    a = 1\n    // before else\n  } else { // in else\n    b = 2\n  }\n}\n"
    );
}

#[test]
fn comment_before_a_closing_brace_stays_in_the_block() {
    let src = "func f() {\n  for i in range(4) { // loop\n    a = i\n        // last words\n  } // done\n}\n";
    assert_eq!(
        fmt_idem(src),
        "func f() {\n  for i in range(4) { // loop\n    a = i\n    // last words\n  } // done\n}\n"
    );
}

#[test]
fn comments_between_functions_and_at_the_end_of_the_file() {
    let src =
        "// header\n\nfunc f() {\n} // end f\n// about g\nfunc g() {\n}\n\n// the end\n// really\n";
    assert_eq!(
        fmt_idem(src),
        "// header\n\nfunc f() {\n} // end f\n\n// about g\nfunc g() {\n}\n\n// the end\n// really\n"
    );
}

#[test]
fn comments_inside_a_multi_line_expression_move_above_it() {
    let src = "func f(a: i64) {\n  x = a + // one\n    // two\n    1\n}\n";
    assert_eq!(
        fmt_idem(src),
        "func f(a: i64) {\n  // one\n  // two\n  x = a + 1\n}\n"
    );
}

#[test]
fn comments_inside_a_parameter_list_move_above_and_in_an_argument_list_stay() {
    let src =
        "func k(a: i64, // first\n       b: i64) {\n}\nfunc f() {\n  k(1, // one\n    2)\n}\n";
    assert_eq!(
        fmt_idem(src),
        "// first\nfunc k(a: i64, b: i64) {\n}\n\nfunc f() {\n  k(\n    1, // one\n    2\n  )\n}\n"
    );
}

#[test]
fn a_comment_after_the_last_item_stays_before_the_closing_bracket() {
    let src = "func f() {\n  k(1,\n    2 // two\n   )\n}\n";
    assert_eq!(
        fmt_idem(src),
        "func f() {\n  k(\n    1,\n    2 // two\n  )\n}\n"
    );
}

#[test]
fn a_blank_line_before_a_statement_stays_above_the_comments_moved_out_of_it() {
    let src = "func f(a: i64) {\n  b = 1\n\n  x = a + // one\n    1\n  k(1, // two\n    2)\n}\n";
    assert_eq!(
        fmt_idem(src),
        "func f(a: i64) {\n  b = 1\n\n  // one\n  x = a + 1\n  k(\n    1, // two\n    2\n  )\n}\n"
    );
}

#[test]
fn directives_inside_a_list_move_above_it() {
    // Their offsets name lines: the offset rewriting only knows whole lines.
    let src = "func f() {\n  k(1, // expected-error {{x}}\n    2, // CHECK: y\n    3, // note\n    4)\n}\n";
    assert_eq!(
        fmt_idem(src),
        "func f() {\n  // expected-error@+2 {{x}}\n  // CHECK: y\n  k(\n    1,\n    2,\n    3, // note\n    4\n  )\n}\n"
    );
}

#[test]
fn blank_lines_between_statements_collapse_to_one() {
    let src = "func f() {\n\n  a = 1\n\n\n\n  b = 2\n  // c\n\n  c = 3\n\n}\n";
    assert_eq!(
        fmt_idem(src),
        "func f() {\n  a = 1\n\n  b = 2\n  // c\n\n  c = 3\n}\n"
    );
}

#[test]
fn split_input_file_chunks_keep_their_separators_and_comments() {
    let src = "// RUN: x\nfunc f() {\n}\n\n// -----\n\n// after the separator\nfunc g() {\n    a = 1\n}\n";
    assert_eq!(
        fmt_idem(src),
        "// RUN: x\nfunc f() {\n}\n\n// -----\n\n// after the separator\nfunc g() {\n  a = 1\n}\n"
    );
}

#[test]
fn a_chunk_that_does_not_parse_is_an_error() {
    let src = "func f() {\n}\n// -----\nfunc g( {\n}\n";
    assert!(format_text(src).is_err());
}

#[test]
fn crlf_files_keep_crlf() {
    let src = "// c\r\nfunc f() {\r\n    a = 1 // t\r\n}\r\n";
    assert_eq!(fmt_idem(src), "// c\r\nfunc f() {\r\n  a = 1 // t\r\n}\r\n");
}

#[test]
fn without_comments_fmt_is_opt() {
    let src = "func k() -> task_id {\n  return system.task_invalid()\n}\norchestration   func main(n: i64) {\n  x = (n + 1) * 2\n  if x > 3 { y = 1 } else { if x > 4 { z = 2 } }\n}\n";
    assert_eq!(
        fmt(src),
        crate::printer::print_module(
            &crate::frontend::read_module(src, Default::default())
                .into_parts()
                .0
                .unwrap()
        )
    );
}

#[test]
fn else_if_chains_keep_their_comments() {
    let src = "func f(c: bool) {\n  if c {\n    a = 1\n    // end 1\n  } else if c { // two\n    b = 2\n  } else {\n    d = 3\n    // end 3\n  } // after\n}\n";
    assert_eq!(fmt_idem(src), src);
}

#[test]
fn comments_in_strings_are_not_comments() {
    let src = "func f() {\n  manual \"a // b\" { // c\n  }\n}\n";
    assert_eq!(fmt_idem(src), src);
}

#[test]
fn expected_offsets_follow_the_code() {
    let src = "func f(a: i64) {\n  // expected-remark@+2 {{x}}\n  x = a +\n    1\n  // expected-remark@-2 {{y}}\n}\n";
    assert_eq!(
        fmt_idem(src),
        "func f(a: i64) {\n  // expected-remark@+1 {{x}}\n  x = a + 1\n  // expected-remark@-1 {{y}}\n}\n"
    );
}

#[test]
fn expected_directive_inside_a_statement_gains_an_offset() {
    let src = "func f(a: i64) {\n  x = a + // expected-remark {{x}}\n    1\n}\n";
    assert_eq!(
        fmt_idem(src),
        "func f(a: i64) {\n  // expected-remark@+1 {{x}}\n  x = a + 1\n}\n"
    );
}

#[test]
fn empty_module_with_comments_only() {
    assert_eq!(
        fmt_idem("// just a note\n\n// another\n"),
        "// just a note\n\n// another\n"
    );
    assert_eq!(fmt_idem(""), "");
}

#[test]
fn directives_are_recognised() {
    use super::print::is_directive;
    for d in [
        "// RUN: x",
        "// CHECK-NEXT: y",
        "// MY-PREFIX: z",
        "// expected-error {{a}}",
        "// x expected-note@+1 {{b}}",
    ] {
        assert!(is_directive(d), "{d}");
    }
    for c in [
        "// a note",
        "// Note: capital then lower",
        "// TODO later",
        "//",
    ] {
        assert!(!is_directive(c), "{c}");
    }
}

#[test]
fn structural_equality_ignores_comments() {
    let plain = "func f() {\n  a = 1\n}\n";
    let commented = "// x\nfunc f() { // y\n  // z\n  a = 1 // w\n}\n// end\n";
    let lines = fsutil::lines::LineIndex::new(commented);
    let (m, _) = super::read_with_comments(commented, &lines, 0, commented);
    let m = m.unwrap();
    assert_eq!(m.functions()[0].comments.all().count(), 4);
    assert_eq!(m.end_comments.len(), 1);
    let (p, _) = crate::frontend::read_module(plain, Default::default()).into_parts();
    assert!(crate::ir::equality::modules_equal(&m, &p.unwrap()).is_ok());
}

/// The indentation of every line `pfir fmt` prints.
fn printed_indentation(text: &str) -> u64 {
    text.lines()
        .map(|l| (l.len() - l.trim_start_matches(' ').len()) as u64)
        .sum()
}

/// What the output-size bound counts for `src` formatted.
fn counted_indentation(src: &str) -> u64 {
    let lines = fsutil::lines::LineIndex::new(src);
    let spans = crate::lexer::comments(src, 0);
    let read = super::read_for_format(src, &lines, 0, src, &spans).unwrap();
    let module = (&read.module, &read.printed[..], &read.notes);
    super::check_output_size([module], super::print::Keep::All)
        .unwrap()
        .total()
}

/// The output-size bound counts the comment lines printed at depth, so
/// that its count is the indentation `pfir fmt` prints (for statements
/// that are not broken by width).
#[test]
fn the_output_size_bound_counts_comment_lines_at_depth() {
    for src in [
        "func f(c: bool) {\n  // a\n  if c {\n    // b\n    // c\n    x = 1 // t\n    // before else\n  } else if c {\n    // d\n    y = 2\n    // before close\n  } else {\n    z = 3 +\n      // inner\n      4\n  }\n  // last\n}\n",
        "func f() {\n  for i in range(4) {\n    for j in range(4) {\n      // deep\n\n      // deeper\n      x = i\n      // end\n    }\n  }\n}\n// after\n",
    ] {
        let printed = printed_indentation(&fmt(src));
        assert_eq!(counted_indentation(src), printed, "{src}");
        assert!(
            printed
                > printed_indentation(&crate::printer::print_module(
                    &crate::frontend::read_module(src, Default::default())
                        .into_parts()
                        .0
                        .unwrap()
                ))
        );
    }
}

/// 10,000 nested `if`s print 200 MB of indentation, within the bound
/// (512 MiB); 20,000 comment lines inside the innermost one bring 400 MB
/// more: `pfir fmt` and `pfir opt --keep-comments` refuse it (E0006)
/// before printing, `pfir opt` (no comments) does not.
#[test]
fn comment_lines_at_depth_count_toward_the_output_bound() {
    let mut src = String::from("func f() -> i64 {\n");
    for piece in ["if true {\n", "// c\n", "// c\n", "}\n"] {
        src.push_str(&piece.repeat(10_000));
    }
    src.push_str("  return 0\n}\n");
    let refused = |diags: Vec<crate::diagnostics::Diagnostic>| {
        diags
            .iter()
            .any(|d| d.code == Some(crate::diagnostics::Code::TooDeep))
    };
    {
        assert!(refused(super::format_text(&src).unwrap_err()));
        let lines = fsutil::lines::LineIndex::new(&src);
        let (m, _) = super::read_with_comments(&src, &lines, 0, &src);
        let m = m.unwrap();
        assert!(crate::printer::check_output_size([&m]).is_ok());
        let keep = super::check_output_size_keeping_comments(std::slice::from_ref(&m));
        assert!(refused(vec![keep.unwrap_err()]));
    };
}

/// The files the test of cutting the work into windows formats.
const CUT_FILES: [&str; 7] = [
    include_str!("../../examples/every_construct.pfir"),
    include_str!("../../examples/chained_phases.pfir"),
    include_str!("../../tests/lit/fmt/Inputs/messy.pfir"),
    include_str!("../../tests/lit/fmt/Inputs/list-comments.pfir"),
    include_str!("../../tests/lit/fmt/Inputs/wide.pfir"),
    include_str!("../../tests/lit/fmt/attachment.pfir"),
    include_str!("../../tests/lit/fmt/width.pfir"),
];

/// `text` formatted within `width` columns, `window_lines` at a time.
fn formatted(text: &str, width: usize, window_lines: usize) -> String {
    super::format_text_in(text, width, window_lines).expect("formats")
}

/// Laying out a window of lines at a time (one `pretty` render per room
/// for the window's statements) gives the bytes of laying out each
/// statement on its own, whatever lines the windows hold.
#[test]
fn any_window_of_lines_gives_the_same_bytes() {
    for (i, text) in CUT_FILES.iter().enumerate() {
        for width in [20, 30, 60, 100] {
            let alone = formatted(text, width, 1);
            for window in [2, 3, 7, super::print::WINDOW_LINES] {
                let together = formatted(text, width, window);
                assert_eq!(together, alone, "file {i}, width {width}, window {window}");
            }
        }
    }
}
