//! The boundaries of the `expected-*` grammar, one row each: the line as
//! written and what [`scan_line`] reads in it, rendered compactly
//! (`KIND LINE {{TEXT}}`, `KIND LINE !PROBLEM`, `?WORD` for a misspelt
//! directive).

use super::{Found, Problem, scan_line};

fn render(line: &str) -> Vec<String> {
    let (_, found) = scan_line(line);
    found
        .iter()
        .map(|f| match f {
            Found::Unknown { word } => format!("?{}", &line[word.clone()]),
            Found::Directive(d) => {
                let tail = match (&d.problem, d.text(line)) {
                    (Some(Problem::NoText), _) => "!no-text".to_string(),
                    (Some(Problem::Unterminated), _) => "!unterminated".to_string(),
                    (Some(Problem::BadLine), Some(t)) => format!("!bad-line {{{{{t}}}}}"),
                    (Some(Problem::BadLine), None) => "!bad-line".to_string(),
                    (None, Some(t)) => format!("{{{{{t}}}}}"),
                    (None, None) => "?".to_string(),
                };
                format!("{} {:?} {tail}", d.kind, d.line)
            }
        })
        .collect()
}

#[test]
fn boundaries() {
    let table: &[(&str, &[&str])] = &[
        // Each kind, each suffix form.
        ("// expected-error {{a}}", &["error Here {{a}}"]),
        ("// expected-warning {{a}}", &["warning Here {{a}}"]),
        ("// expected-note {{a}}", &["note Here {{a}}"]),
        ("// expected-remark {{a}}", &["remark Here {{a}}"]),
        ("// expected-error@+2 {{a}}", &["error Relative(2) {{a}}"]),
        ("// expected-error@-1 {{a}}", &["error Relative(-1) {{a}}"]),
        ("// expected-error@7 {{a}}", &["error Absolute(7) {{a}}"]),
        ("// expected-note@above {{a}}", &["note Above {{a}}"]),
        ("// expected-note@below {{a}}", &["note Below {{a}}"]),
        ("// expected-error@+1{{a}}", &["error Relative(1) {{a}}"]),
        ("// expected-error    {{a b}}", &["error Here {{a b}}"]),
        // Prose: not directives, ignored.
        (
            "// Offsets in expected-* comments must keep pointing at the same code",
            &[],
        ),
        ("// unexpected-error {{a}}", &[]),
        ("// not-expected-error {{a}}", &[]),
        ("// expected_error {{a}}", &[]),
        ("// expected-foo is a word", &[]),
        ("// expected-errors are listed", &[]),
        ("// expected-", &[]),
        ("// the expected- prefix", &[]),
        // Misspelt or unsupported kinds before `{{`: reported.
        ("// expected-eror {{a}}", &["?expected-eror"]),
        ("// expected-error-re {{a.*}}", &["?expected-error-re"]),
        ("// expected-foo@+1 {{a}}", &["?expected-foo"]),
        // A known kind with a malformed tail stays a directive, in error.
        ("// expected-error", &["error Here !no-text"]),
        ("// expected-error text", &["error Here !no-text"]),
        (
            "// expected-error {{unterminated",
            &["error Here !unterminated"],
        ),
        (
            "// expected-error@+z {{a}}",
            &["error Here !bad-line {{a}}"],
        ),
        ("// expected-error@ {{a}}", &["error Here !bad-line {{a}}"]),
        ("// expected-error@+ {{a}}", &["error Here !bad-line {{a}}"]),
        (
            "// expected-error@aboveX {{a}}",
            &["error Here !bad-line {{a}}"],
        ),
        // Several on one line, each once; text holding a directive's name.
        (
            "x = y // expected-error {{one}} expected-note@+1 {{two}}",
            &["error Here {{one}}", "note Relative(1) {{two}}"],
        ),
        (
            "// expected-error {{has expected-note in it}}",
            &["error Here {{has expected-note in it}}"],
        ),
        ("// (expected-error {{a}})", &["error Here {{a}}"]),
        // `//` inside a string starts no comment; the comment after does.
        ("s = \"// expected-error {{no}}\"", &[]),
        (
            "s = \"// expected-error {{no}}\" // expected-error {{yes}}",
            &["error Here {{yes}}"],
        ),
        ("no comment expected-error {{a}}", &[]),
        // CRLF: the `\r` ends neither the text nor the suffix wrongly.
        ("// expected-error@+1 {{a}}\r", &["error Relative(1) {{a}}"]),
        ("// expected-error@+1\r", &["error Relative(1) !no-text"]),
        ("// expected-error {{a\r", &["error Here !unterminated"]),
    ];
    let mut wrong = Vec::new();
    for (line, want) in table {
        let got = render(line);
        if got != *want {
            wrong.push(format!("{line:?}: got {got:?}, want {want:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn lines_are_resolved_from_the_directive() {
    use super::Line;
    assert_eq!(Line::Here.target(4), Some(4));
    assert_eq!(Line::Relative(-5).target(4), None);
    assert_eq!(Line::Relative(2).target(4), Some(6));
    assert_eq!(Line::Absolute(1).target(4), Some(0));
    assert_eq!(Line::Absolute(0).target(4), None);
    assert_eq!(Line::Above.target(4), Some(3));
    assert_eq!(Line::Above.target(0), None);
    assert_eq!(Line::Below.target(4), Some(5));
}

#[test]
fn has_directive_is_true_only_for_known_kinds() {
    assert!(super::has_directive("// expected-error {{a}}"));
    assert!(super::has_directive("// expected-error"));
    assert!(!super::has_directive("// expected-* comments"));
    assert!(!super::has_directive("// unexpected-error {{a}}"));
    assert!(!super::has_directive("// expected-eror {{a}}"));
}
