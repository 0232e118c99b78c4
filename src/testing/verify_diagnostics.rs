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
//! relative to the comment's line, `@above` / `@below` name the line above or
//! below, and `@N` names a line directly (the grammar, read by
//! [`crate::testing::expected`], is in `docs/testing.md`); the text
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
use std::collections::HashMap;

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

/// The expectation kinds, as written after `expected-`.
const KINDS: [&str; 4] = crate::testing::expected::KINDS;

/// Reads the expectations of `file` with the one reader of `expected-*`
/// directives ([`crate::testing::expected`], grammar in
/// `docs/testing.md`). Malformed ones are returned as error diagnostics at
/// the comment: a bad `@` line, a line outside the file, no `{{...}}`
/// after the kind, a missing `}}`, or, before a `{{`, an unsupported form
/// (`expected-error-re`) or an unknown kind (`expected-bogus`, with "did
/// you mean" for a misspelling such as `expected-eror`). Prose that only
/// mentions the family (`expected-*`, `unexpected-error`) is ignored.
pub fn parse_expectations(file: &SourceFile) -> (Vec<Expectation>, Vec<Diagnostic>) {
    use crate::testing::expected::{Found, Problem, scan_line};
    let mut expectations = Vec::new();
    let mut errors = Vec::new();
    let line_count = file.line_count();
    for (index, line) in fsutil::lines::lines(&file.text).enumerate() {
        if !line.contains("expected-") {
            continue;
        }
        let base = file.line_start(index);
        let at = |r: &std::ops::Range<usize>| Span::new(base + r.start, base + r.end);
        for found in scan_line(line).1 {
            let d = match found {
                Found::Unknown { word } => {
                    let text = &line[word.clone()];
                    let kind = &text["expected-".len()..];
                    errors.push(unknown_kind(text, kind, at(&word)));
                    continue;
                }
                Found::Directive(d) => d,
            };
            let word = format!("expected-{}", d.kind);
            let word_start = base + d.head.start;
            match d.problem {
                Some(Problem::NoText) => {
                    let open = line.len() - line[d.head.end..].trim_start().len();
                    errors.push(
                        Diagnostic::error(
                            format!("`{word}` needs the expected text in `{{{{...}}}}`"),
                            Span::new(word_start, base + open),
                        )
                        .with_code(Code::ExpectationMismatch)
                        .with_help(format!("write `{word} {{{{text of the message}}}}`")),
                    );
                    continue;
                }
                Some(Problem::Unterminated) => {
                    errors.push(
                        Diagnostic::error("expected `}}` to close the expected text", at(&d.range))
                            .with_code(Code::ExpectationMismatch),
                    );
                    continue;
                }
                Some(Problem::BadLine) => {
                    errors.push(
                        Diagnostic::error("invalid line offset in an expected-* directive", at(&d.range))
                            .with_code(Code::ExpectationMismatch)
                            .with_help("write `@+N` or `@-N` (relative to this line), `@N` (a line number), `@above` or `@below`"),
                    );
                    continue;
                }
                None => {}
            }
            let span = at(&d.range);
            let Some(line_no) = d.line.target(index).filter(|l| *l < line_count) else {
                errors.push(
                    Diagnostic::error(
                        format!(
                            "`{}` refers to a line outside the file",
                            &line[d.head.clone()]
                        ),
                        span,
                    )
                    .with_code(Code::ExpectationMismatch),
                );
                continue;
            };
            expectations.push(Expectation {
                severity: d.severity(),
                line: line_no,
                text: d.text(line).unwrap_or_default().to_string(),
                span,
            });
        }
    }
    (expectations, errors)
}

/// The error for `expected-KIND {{` where KIND is not one of [`KINDS`].
fn unknown_kind(word: &str, kind: &str, span: Span) -> Diagnostic {
    if let Some(base) = KINDS
        .iter()
        .find(|k| kind.strip_prefix(**k).is_some_and(|r| r.starts_with('-')))
    {
        return Diagnostic::error(
            format!("`{word}` is not supported: expected texts are plain substrings"),
            span,
        )
        .with_code(Code::ExpectationMismatch)
        .with_help(format!("write `expected-{base} {{{{text}}}}`"));
    }
    let names = KINDS.map(|k| format!("expected-{k}"));
    let d = Diagnostic::error(format!("unknown expectation `{word}`"), span)
        .with_code(Code::ExpectationMismatch);
    match crate::diagnostics::suggest::closest(word, names.iter().map(String::as_str)) {
        Some(close) => d.with_suggestion(
            span,
            close.to_string(),
            format!("did you mean `{close}`?"),
            crate::diagnostics::Applicability::MaybeIncorrect,
        ),
        None => {
            d.with_help("write expected-error, expected-warning, expected-note or expected-remark")
        }
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
    match_with_work(file, expectations, produced).0
}

/// [`match_diagnostics`], also returning how many (diagnostic, candidate)
/// steps it took: the tests bound it to show the matching is not quadratic.
///
/// Expectations are grouped by (severity, line, text): equal ones are
/// interchangeable, so a group is one node with a capacity. A diagnostic's
/// candidates are only the groups of its own severity and line (a hash
/// lookup) whose text its message contains. Every diagnostic first takes a
/// free candidate if there is one; only those left over search for an
/// augmenting path (Kuhn's algorithm, with an explicit stack).
fn match_with_work(
    file: &SourceFile,
    expectations: &[Expectation],
    produced: &[Diagnostic],
) -> (Vec<Option<usize>>, usize) {
    let mut work = 0usize;
    // Groups of equal expectations, and the groups of each (severity, line).
    let mut group_of_key: HashMap<(Severity, usize, &str), usize> = HashMap::new();
    let mut members: Vec<Vec<usize>> = Vec::new();
    let mut by_line: HashMap<(Severity, usize), Vec<usize>> = HashMap::new();
    for (i, e) in expectations.iter().enumerate() {
        let g = *group_of_key
            .entry((e.severity, e.line, e.text.as_str()))
            .or_insert_with(|| {
                members.push(Vec::new());
                by_line
                    .entry((e.severity, e.line))
                    .or_default()
                    .push(members.len() - 1);
                members.len() - 1
            });
        members[g].push(i);
    }
    let text_of = |g: usize| expectations[members[g][0]].text.as_str();
    let candidates: Vec<Vec<usize>> = produced
        .iter()
        .map(|d| {
            let line = diagnostic_line(file, d);
            let mut c: Vec<usize> = by_line
                .get(&(d.severity, line))
                .map(|groups| {
                    work += groups.len();
                    groups
                        .iter()
                        .copied()
                        .filter(|&g| d.message.contains(text_of(g)))
                        .collect()
                })
                .unwrap_or_default();
            c.sort_by_key(|&g| std::cmp::Reverse(text_of(g).len()));
            c
        })
        .collect();
    let mut assigned: Vec<Vec<usize>> = vec![Vec::new(); members.len()];
    let mut group_of: Vec<Option<usize>> = vec![None; produced.len()];
    // Greedy: a free candidate when there is one.
    for (d, cands) in candidates.iter().enumerate() {
        for &g in cands {
            work += 1;
            if assigned[g].len() < members[g].len() {
                assigned[g].push(d);
                group_of[d] = Some(g);
                break;
            }
        }
    }
    // Augmenting paths for the rest.
    let mut group_seen = vec![0u32; members.len()];
    let mut diag_seen = vec![0u32; produced.len()];
    let mut stamp = 0u32;
    for d in 0..produced.len() {
        if group_of[d].is_some() || candidates[d].is_empty() {
            continue;
        }
        stamp += 1;
        augment(
            d,
            &candidates,
            &members,
            &mut assigned,
            &mut group_of,
            (&mut group_seen, &mut diag_seen, stamp),
            &mut work,
        );
    }
    let mut matched = vec![None; produced.len()];
    for (g, ds) in assigned.iter().enumerate() {
        for (k, &d) in ds.iter().enumerate() {
            matched[d] = Some(members[g][k]);
        }
    }
    (matched, work)
}

/// One level of the augmenting-path search: diagnostic `d`, trying its
/// candidate `next`, and (when `group` is set) the member `member` of that
/// full group, who would have to move elsewhere.
struct Frame {
    d: usize,
    next: usize,
    group: Option<usize>,
    member: usize,
}

/// Looks for an augmenting path from the unmatched diagnostic `start` and
/// applies it. Iterative, so its depth is not bounded by the stack.
fn augment(
    start: usize,
    candidates: &[Vec<usize>],
    members: &[Vec<usize>],
    assigned: &mut [Vec<usize>],
    group_of: &mut [Option<usize>],
    (group_seen, diag_seen, stamp): (&mut [u32], &mut [u32], u32),
    work: &mut usize,
) -> bool {
    diag_seen[start] = stamp;
    let mut stack = vec![Frame {
        d: start,
        next: 0,
        group: None,
        member: 0,
    }];
    while let Some(top) = stack.len().checked_sub(1) {
        // Try the next member of the current full group.
        if let Some(g) = stack[top].group {
            let mut pushed = false;
            while stack[top].member < assigned[g].len() {
                *work += 1;
                let other = assigned[g][stack[top].member];
                if diag_seen[other] != stamp {
                    diag_seen[other] = stamp;
                    stack.push(Frame {
                        d: other,
                        next: 0,
                        group: None,
                        member: 0,
                    });
                    pushed = true;
                    break;
                }
                stack[top].member += 1;
            }
            if pushed {
                continue;
            }
            stack[top].group = None;
        }
        let d = stack[top].d;
        let Some(&g) = candidates[d].get(stack[top].next) else {
            // Dead end: the parent tries its group's next member.
            stack.pop();
            if let Some(parent) = stack.last_mut() {
                parent.member += 1;
            }
            continue;
        };
        stack[top].next += 1;
        *work += 1;
        if group_seen[g] == stamp {
            continue;
        }
        group_seen[g] = stamp;
        if assigned[g].len() < members[g].len() {
            // Free room: `d` takes it, and each diagnostic below on the
            // stack takes the place of the one that moved up.
            assigned[g].push(d);
            group_of[d] = Some(g);
            stack.pop();
            while let Some(frame) = stack.pop() {
                let fg = frame
                    .group
                    .expect("a frame below the top is exploring a group");
                assigned[fg][frame.member] = frame.d;
                group_of[frame.d] = Some(fg);
            }
            return true;
        }
        stack[top].group = Some(g);
        stack[top].member = 0;
    }
    false
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
        let text = "a // expected-error {{one}} expected-note@+1 {{two}}\n// expected-warning@-1 {{three}}\n// expected-remark@1 {{four}}\n\"// expected-error {{in a string}}\"\n// unexpected-error and expected-error {{has expected-note in it}}\n";
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
                (Severity::Error, 4, "has expected-note in it"),
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
        let chunks = crate::split_input::split_chunks(text);
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

    #[test]
    fn every_line_break_counts_for_directive_lines() {
        // Line 3 is `y` whether lines end at `\n`, `\r\n` or a lone `\r`.
        for br in ["\n", "\r\n", "\r"] {
            let text = format!(
                "x{br}// expected-note@below {{{{n}}}} expected-note@-1 {{{{m}}}}{br}y{br}"
            );
            let (e, errors) = parse_expectations(&file(&text));
            assert!(errors.is_empty(), "{br:?} {errors:?}");
            let lines: Vec<(usize, &str)> = e.iter().map(|e| (e.line, e.text.as_str())).collect();
            assert_eq!(lines, [(2, "n"), (0, "m")], "{br:?}");
        }
    }

    #[test]
    fn prose_about_directives_is_not_one() {
        let text = "// Offsets in expected-* comments must keep pointing at the same code\n\
                    // unexpected-error {{a}} and expected-foo, expected-errors\n\
                    x // expected-note@above {{above}} expected-note@below {{below}}\ny\n";
        let (e, errors) = parse_expectations(&file(text));
        assert!(errors.is_empty(), "{errors:?}");
        let lines: Vec<(usize, &str)> = e.iter().map(|e| (e.line, e.text.as_str())).collect();
        assert_eq!(lines, [(1, "above"), (3, "below")]);
    }

    #[test]
    fn malformed_expectations_are_errors_at_the_comment() {
        let cases = [
            (
                "x // expected-error\n",
                "`expected-error` needs the expected text in `{{...}}`",
            ),
            (
                "x // expected-warning@+1 oops\ny\n",
                "`expected-warning` needs the expected text",
            ),
            (
                "x // expected-error-re {{a.*}}\n",
                "`expected-error-re` is not supported",
            ),
            (
                "x // expected-bogus {{x}}\n",
                "unknown expectation `expected-bogus`",
            ),
            (
                "x // expected-eror {{x}}\n",
                "unknown expectation `expected-eror`",
            ),
        ];
        for (text, message) in cases {
            let (e, errors) = parse_expectations(&file(text));
            assert!(e.is_empty(), "{text:?}");
            assert_eq!(errors.len(), 1, "{text:?}: {errors:?}");
            assert!(
                errors[0].message.starts_with(message),
                "{text:?}: {}",
                errors[0].message
            );
            assert!(errors[0].is_error());
            let at = text.find("expected-").unwrap();
            assert_eq!(errors[0].primary.span.start(), at, "{text:?}");
            // And `verify` reports it, failing the run.
            assert_eq!(verify(&file(text), &[]).len(), 1);
        }
        let (_, errors) = parse_expectations(&file("x // expected-eror {{x}}\n"));
        // The likely spelling is a fix, replacing the misspelt word.
        let fix = &errors[0].suggestions[0];
        assert_eq!(fix.message, "did you mean `expected-error`?");
        assert_eq!(
            (fix.replacement.as_str(), fix.span.start()),
            ("expected-error", 5)
        );
        assert_eq!(errors[0].code, Some(Code::ExpectationMismatch));
    }

    #[test]
    fn matching_is_not_quadratic() {
        // 40,000 expectations, one per line, each met by one diagnostic.
        let n = 40_000;
        let text: String = (0..n)
            .map(|i| format!("x{i} // expected-error {{{{bad {i}}}}}\n"))
            .collect();
        let f = file(&text);
        let (expectations, errors) = parse_expectations(&f);
        assert!(errors.is_empty());
        assert_eq!(expectations.len(), n);
        let diags: Vec<Diagnostic> = (0..n)
            .map(|i| {
                let at = f.line_start(i);
                Diagnostic::error(format!("bad {i} here"), Span::new(at, at + 1))
            })
            .collect();
        let (matched, work) = match_with_work(&f, &expectations, &diags);
        assert!(matched.iter().all(Option::is_some));
        assert!(work <= 4 * n, "{work} steps for {n} expectations");
        // Many equal expectations on one line: one group, still linear.
        let text = format!("x // {}\n", "expected-error {{bad}} ".repeat(5_000));
        let f = file(&text);
        let (expectations, _) = parse_expectations(&f);
        let diags = vec![Diagnostic::error("bad", Span::new(0, 1)); 5_000];
        let (matched, work) = match_with_work(&f, &expectations, &diags);
        assert!(matched.iter().all(Option::is_some));
        assert!(work <= 4 * 5_000, "{work}");
    }

    #[test]
    fn augmenting_paths_move_earlier_choices() {
        // d0 can meet "bc" or "a" and takes "bc" first (the longer text);
        // d1 can only meet "bc": d0 must move to "a".
        let text = "x // expected-error {{a}} expected-error {{bc}}\n";
        let d0 = Diagnostic::error("a bc", Span::new(0, 1));
        let d1 = Diagnostic::error("bc", Span::new(0, 1));
        let (e, _) = parse_expectations(&file(text));
        let (matched, _) = match_with_work(&file(text), &e, &[d0.clone(), d1.clone()]);
        assert_eq!(matched, vec![Some(0), Some(1)]);
        assert!(verify(&file(text), &[d0.clone(), d1.clone()]).is_empty());
        // A third that only "a" fits: one of the three stays unexpected.
        let d2 = Diagnostic::error("a", Span::new(0, 1));
        assert_eq!(verify(&file(text), &[d0, d1, d2]).len(), 1);
    }

    proptest::proptest! {
        #![proptest_config(crate::testing::never_panics_config())]

        /// `expected-*` comments are user input: malformed ones, offsets
        /// out of range and diagnostics anywhere never make it panic.
        #[test]
        fn never_panics(
            lines in proptest::collection::vec(
                proptest::sample::select(&[
                    "x", "// expected-error {{a}}", "// expected-error@+1 {{a}}", "// expected-error@-9 {{a}}",
                    "// expected-note@+99999999999999999999 {{b}}", "// expected-remark {{", "// expected-warning }}",
                    "// expected-error @+1 {{a}} {{b}}", "// expected-bogus {{a}}", "", "é",
                ][..]),
                0..12,
            ),
            at in proptest::collection::vec((0usize..400, 0usize..3), 0..4),
        ) {
            let text = lines.join("\n");
            let produced: Vec<Diagnostic> = at
                .into_iter()
                .map(|(offset, sev)| {
                    let severity = [Severity::Error, Severity::Note, Severity::Remark][sev];
                    Diagnostic::new(severity, "a", Span::new(offset, offset + 1))
                })
                .collect();
            let _ = verify(&file(&text), &produced);
        }
    }
}
