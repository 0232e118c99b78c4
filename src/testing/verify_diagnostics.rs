//! `--verify-diagnostics`: match produced diagnostics against `expected-*` comments.
//!
//! An expectation is written in a `//` comment, MLIR style:
//!
//! ```text
//! x = y            // expected-error {{unknown variable}}
//! // expected-warning@+1 {{unused}}
//! z = 1
//! // expected-note@-3 {{declared here}} expected-remark@-3 {{...}}
//! ```
//!
//! `expected-error`, `expected-warning`, `expected-note` and
//! `expected-remark` name the severity; `@+N` / `@-N` move the expected line
//! relative to the comment's line and `@N` names a line directly; the text
//! between `{{` and the first `}}` must occur in the message. A line may hold
//! several expectations. A produced diagnostic can meet an expectation of
//! its severity whose line is the line where its primary span starts (a
//! diagnostic at the very end of a file that ends with a newline counts as
//! being on its last line) and whose text its message contains; each
//! expectation is met by at most one diagnostic and each diagnostic meets at
//! most one expectation, paired so that as many as possible are met. The notes
//! attached to a diagnostic are part of it; `expected-note` matches
//! diagnostics of severity note.
//!
//! Every produced diagnostic that matches nothing is reported as
//! `unexpected error: ...` at its own location, and every expectation that
//! nothing matched as `expected error "..." was not produced` at its
//! comment. Line numbers are those of the whole file, so this works
//! unchanged with `--split-input-file` (chunk diagnostics keep their
//! offsets in the file).

use crate::diagnostics::Code;
use crate::diagnostics::{Diagnostic, Severity, SourceFile};
use crate::span::Span;
use regex::Regex;
use std::sync::LazyLock;

/// One `expected-*` comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expectation {
    pub severity: Severity,
    /// 0-based line the diagnostic is expected on.
    pub line: usize,
    /// Text the message must contain.
    pub text: String,
    /// Where the directive is written (for reporting it).
    pub span: Span,
}

/// Anything spelt like a directive: `expected-WORD` (`@...`) `{{`.
static ANY_DIRECTIVE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"expected-([A-Za-z_]+)(@[^\s{]*)?\s*\{\{").expect("valid regex"));

static DIRECTIVE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"expected-(error|warning|note|remark)(@[^\s{]*)?\s*\{\{").expect("valid regex")
});

fn severity(word: &str) -> Severity {
    match word {
        "error" => Severity::Error,
        "warning" => Severity::Warning,
        "note" => Severity::Note,
        _ => Severity::Remark,
    }
}

/// The comment part of a line (from its first `//` that is not inside a
/// string literal), with its byte offset in the line.
fn comment_of(line: &str) -> Option<(usize, &str)> {
    let bytes = line.as_bytes();
    let mut in_string = false;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if in_string => i += 1,
            b'"' => in_string = !in_string,
            b'/' if !in_string && bytes.get(i + 1) == Some(&b'/') => return Some((i, &line[i..])),
            _ => {}
        }
        i += 1;
    }
    None
}

/// Reads the expectations of `file`. Malformed ones (a bad `@` offset, a
/// line outside the file, a missing `}}`) are returned as error diagnostics.
pub fn parse_expectations(file: &SourceFile) -> (Vec<Expectation>, Vec<Diagnostic>) {
    let mut expectations = Vec::new();
    let mut errors = Vec::new();
    let line_count = file.line_count();
    for (index, line) in file.text.split('\n').enumerate() {
        let Some((comment_at, comment)) = comment_of(line) else {
            continue;
        };
        let base = file.line_start(index) + comment_at;
        // A misspelt severity (`expected-eror {{...}}`) would silently
        // expect nothing: report it, with the closest spelling.
        for caps in ANY_DIRECTIVE.captures_iter(comment) {
            let word = caps.get(1).expect("group 1");
            if matches!(word.as_str(), "error" | "warning" | "note" | "remark") {
                continue;
            }
            let whole = caps.get(0).expect("group 0");
            let span = Span::new(base + word.start(), base + word.end());
            let mut d = Diagnostic::error(
                format!("unknown directive `expected-{}`", word.as_str()),
                Span::new(base + whole.start(), base + word.end()),
            )
            .with_code(Code::ExpectationMismatch)
            .with_label("not a severity")
            .with_note("the directives are `expected-error`, `expected-warning`, `expected-note` and `expected-remark`");
            if let Some(s) = crate::lower::suggest::closest(
                word.as_str(),
                ["error", "warning", "note", "remark"].into_iter(),
            ) {
                d = d.with_suggestion(
                    span,
                    s,
                    format!("did you mean `expected-{s}`?"),
                    crate::diagnostics::Applicability::MaybeIncorrect,
                );
            }
            errors.push(d);
        }
        for caps in DIRECTIVE.captures_iter(comment) {
            let whole = caps.get(0).expect("group 0");
            let start = base + whole.start();
            let directive = &comment[whole.start()..];
            let text_start = whole.end();
            let Some(len) = comment[text_start..].find("}}") else {
                errors.push(
                    Diagnostic::error(
                        "expected `}}` to close the expected text",
                        Span::new(start, base + comment.len()),
                    )
                    .with_code(Code::ExpectationMismatch),
                );
                continue;
            };
            let span = Span::new(start, base + text_start + len + 2);
            let text = comment[text_start..text_start + len].to_string();
            let target = match caps.get(2).map(|m| &m.as_str()[1..]) {
                None => Some(index as i64),
                Some(offset) => parse_line_offset(offset, index),
            };
            let line = match target {
                Some(l) if l >= 0 && (l as usize) < line_count => l as usize,
                Some(_) => {
                    errors.push(
                        Diagnostic::error(
                            format!(
                                "`{}` refers to a line outside the file",
                                directive.split_whitespace().next().unwrap_or(directive)
                            ),
                            span,
                        )
                        .with_code(Code::ExpectationMismatch),
                    );
                    continue;
                }
                None => {
                    errors.push(
                        Diagnostic::error("invalid line offset in an expected-* directive", span)
.with_code(Code::ExpectationMismatch)
                            .with_help("write `@+N` or `@-N` (relative to this line) or `@N` (a line number)"),
                    );
                    continue;
                }
            };
            expectations.push(Expectation {
                severity: severity(&caps[1]),
                line,
                text,
                span,
            });
        }
    }
    (expectations, errors)
}

/// The 0-based line an `@...` suffix names, relative to 0-based `index`.
fn parse_line_offset(offset: &str, index: usize) -> Option<i64> {
    let number = |s: &str| {
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<i64>().ok())
            .flatten()
    };
    if let Some(n) = offset.strip_prefix('+') {
        Some(index as i64 + number(n)?)
    } else if let Some(n) = offset.strip_prefix('-') {
        Some(index as i64 - number(n)?)
    } else {
        Some(number(offset)? - 1)
    }
}

/// The 0-based line a diagnostic is on, for matching.
fn diagnostic_line(file: &SourceFile, d: &Diagnostic) -> usize {
    let mut offset = d.primary.span.start().min(file.text.len());
    if offset == file.text.len() && offset > 0 && file.text.ends_with('\n') {
        offset -= 1;
    }
    file.line_index(offset)
}

/// Pairs diagnostics with expectations: a maximum matching (so that one
/// loose expectation cannot take the diagnostic a more specific one needs),
/// trying longer expected texts first. Returns, per diagnostic, the index of
/// its expectation.
fn match_diagnostics(
    file: &SourceFile,
    expectations: &[Expectation],
    produced: &[Diagnostic],
) -> Vec<Option<usize>> {
    let candidates: Vec<Vec<usize>> = produced
        .iter()
        .map(|d| {
            let line = diagnostic_line(file, d);
            let mut c: Vec<usize> = (0..expectations.len())
                .filter(|&i| {
                    let e = &expectations[i];
                    e.severity == d.severity && e.line == line && d.message.contains(&e.text)
                })
                .collect();
            c.sort_by_key(|&i| std::cmp::Reverse(expectations[i].text.len()));
            c
        })
        .collect();
    // Kuhn's augmenting paths; `owner[e]` is the diagnostic holding expectation `e`.
    let mut owner: Vec<Option<usize>> = vec![None; expectations.len()];
    fn augment(
        d: usize,
        candidates: &[Vec<usize>],
        owner: &mut [Option<usize>],
        seen: &mut [bool],
    ) -> bool {
        for &e in &candidates[d] {
            if seen[e] {
                continue;
            }
            seen[e] = true;
            if owner[e].is_none_or(|other| augment(other, candidates, owner, seen)) {
                owner[e] = Some(d);
                return true;
            }
        }
        false
    }
    for d in 0..produced.len() {
        if !candidates[d].is_empty() {
            let mut seen = vec![false; expectations.len()];
            augment(d, &candidates, &mut owner, &mut seen);
        }
    }
    let mut matched = vec![None; produced.len()];
    for (e, d) in owner.iter().enumerate() {
        if let Some(d) = d {
            matched[*d] = Some(e);
        }
    }
    matched
}

/// Returns the mismatches between `produced` and the expectations written in
/// `file` (empty when everything matched).
pub fn verify(file: &SourceFile, produced: &[Diagnostic]) -> Vec<Diagnostic> {
    let (expectations, mut report) = parse_expectations(file);
    let matched = match_diagnostics(file, &expectations, produced);
    let mut met = vec![false; expectations.len()];
    for (d, m) in produced.iter().zip(&matched) {
        match m {
            Some(i) => met[*i] = true,
            None => {
                let mut unexpected = d.clone();
                unexpected.severity = Severity::Error;
                unexpected.code = Some(Code::ExpectationMismatch);
                unexpected.message = format!("unexpected {}: {}", d.severity.name(), d.message);
                report.push(unexpected);
            }
        }
    }
    for (e, met) in expectations.iter().zip(met) {
        if !met {
            report.push(
                Diagnostic::error(
                    format!(
                        "expected {} \"{}\" was not produced",
                        e.severity.name(),
                        e.text
                    ),
                    e.span,
                )
                .with_code(Code::ExpectationMismatch)
                .with_label(format!("expected on line {}", e.line + 1)),
            );
        }
    }
    report.sort_by_key(|d| d.primary.span.start());
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str) -> SourceFile {
        SourceFile::new("t.pfir", text)
    }

    /// A diagnostic of `severity` at the first occurrence of `at` in `text`.
    fn diag(text: &str, severity: Severity, at: &str, message: &str) -> Diagnostic {
        let start = text.find(at).expect("anchor in text");
        Diagnostic::new(severity, message, Span::new(start, start + at.len()))
    }

    fn messages(report: &[Diagnostic]) -> Vec<String> {
        report.iter().map(|d| d.message.clone()).collect()
    }

    #[test]
    fn parses_directives() {
        let text = "a // expected-error {{one}} expected-note@+1 {{two}}\n// expected-warning@-1 {{three}}\n// expected-remark@1 {{four}}\n\"// expected-error {{in a string}}\"\n// prose about expected-error without braces\n";
        let (e, errors) = parse_expectations(&file(text));
        assert!(errors.is_empty(), "{errors:?}");
        let got: Vec<_> = e
            .iter()
            .map(|e| (e.severity, e.line, e.text.as_str()))
            .collect();
        assert_eq!(
            got,
            vec![
                (Severity::Error, 0, "one"),
                (Severity::Note, 1, "two"),
                (Severity::Warning, 0, "three"),
                (Severity::Remark, 0, "four"),
            ]
        );
        assert_eq!(&text[e[0].span.range()], "expected-error {{one}}");
    }

    #[test]
    fn malformed_directives_are_errors() {
        let text =
            "// expected-error@-5 {{x}}\n// expected-error@+z {{y}}\n// expected-error {{no end\n";
        let (e, errors) = parse_expectations(&file(text));
        assert!(e.is_empty());
        assert_eq!(errors.len(), 3);
        // And `verify` reports them.
        assert_eq!(verify(&file(text), &[]).len(), 3);
    }

    #[test]
    fn all_matched_gives_nothing() {
        let text = "x = y // expected-error {{unknown variable}}\n// expected-warning@+1 {{unused}}\nz = 1\nw = 2\n// expected-note@-1 {{here}}\n";
        let diags = vec![
            diag(text, Severity::Error, "y", "unknown variable `y`"),
            diag(text, Severity::Warning, "z", "`z` is unused"),
            diag(text, Severity::Note, "w = 2", "declared here"),
        ];
        assert!(verify(&file(text), &diags).is_empty());
    }

    #[test]
    fn unexpected_and_unmet() {
        let text = "x = y // expected-error {{unknown function}}\nz = 1\n";
        let diags = vec![
            diag(text, Severity::Error, "y", "unknown variable `y`"),
            diag(text, Severity::Warning, "z", "unused"),
        ];
        let report = verify(&file(text), &diags);
        assert_eq!(
            messages(&report),
            vec![
                "unexpected error: unknown variable `y`",
                "expected error \"unknown function\" was not produced",
                "unexpected warning: unused",
            ]
        );
        assert!(report.iter().all(Diagnostic::is_error));
        // Reported where the diagnostic was, and where the comment is.
        assert_eq!(report[0].primary.span, diags[0].primary.span);
        assert_eq!(
            &text[report[1].primary.span.range()],
            "expected-error {{unknown function}}"
        );
    }

    #[test]
    fn wrong_line_or_severity_does_not_match() {
        let text = "a = 1\n// expected-error@-1 {{bad}}\nb = 2\n";
        let on_wrong_line = diag(text, Severity::Error, "b", "bad");
        assert_eq!(verify(&file(text), &[on_wrong_line]).len(), 2);
        let wrong_severity = diag(text, Severity::Warning, "a", "bad");
        assert_eq!(verify(&file(text), &[wrong_severity]).len(), 2);
        let right = diag(text, Severity::Error, "a", "very bad");
        assert!(verify(&file(text), &[right]).is_empty());
    }

    #[test]
    fn several_on_one_line_each_used_once() {
        let text =
            "a = b + c // expected-error {{unknown}} expected-error {{unknown variable `c`}}\n";
        let b = diag(text, Severity::Error, "b", "unknown variable `b`");
        let c = diag(text, Severity::Error, "c ", "unknown variable `c`");
        assert!(verify(&file(text), &[b.clone(), c.clone()]).is_empty());
        // Produced once, expected twice: one unmet.
        assert_eq!(
            messages(&verify(&file(text), std::slice::from_ref(&c))),
            vec!["expected error \"unknown\" was not produced"]
        );
        // Produced three times, expected twice: one unexpected.
        assert_eq!(verify(&file(text), &[b.clone(), c, b]).len(), 1);
    }

    #[test]
    fn end_of_file_counts_as_last_line() {
        let text = "func f() {\n// expected-error@+1 {{unexpected end of file}}\n";
        let at_eof = Diagnostic::error("unexpected end of file", Span::new(text.len(), text.len()));
        // The comment is on line 2 and points at line 3, which is the empty
        // line after the final newline; the file's last line is line 2.
        assert_eq!(verify(&file(text), std::slice::from_ref(&at_eof)).len(), 2);
        let text2 = "func f() {\n// expected-error {{unexpected end of file}}\n";
        let at_eof2 = Diagnostic::error(
            "unexpected end of file",
            Span::new(text2.len(), text2.len()),
        );
        assert!(verify(&file(text2), &[at_eof2]).is_empty());
    }

    #[test]
    fn split_input_file_uses_whole_file_lines() {
        // Chunk diagnostics keep their offsets in the whole file.
        let text = "func f() {\n  x = y // expected-error {{unknown variable}}\n}\n// -----\nfunc g() {\n  x = y // expected-error {{unknown variable}}\n}\n";
        let chunks = crate::driver::split_chunks(text);
        assert_eq!(chunks.len(), 2);
        let diags: Vec<_> = chunks
            .iter()
            .map(|(base, chunk)| {
                let at = base + chunk.find('y').unwrap();
                Diagnostic::error("unknown variable `y`", Span::new(at, at + 1))
            })
            .collect();
        assert!(verify(&file(text), &diags).is_empty());
        assert_eq!(verify(&file(text), &diags[..1]).len(), 1);
    }
}
