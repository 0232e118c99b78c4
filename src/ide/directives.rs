//! Test directives inside `//` comments (spec section 10): `RUN:` lines,
//! FileCheck directives (`CHECK:`, `CHECK-NEXT:`, ... with `{{regex}}` and
//! `[[VAR]]` parts, under every prefix the RUN lines name), and
//! `expected-error@+1 {{text}}` comments for `--verify-diagnostics`.
//!
//! A RUN or FileCheck directive is the first word of a comment, as pfir's
//! test files write them; `expected-*` expectations are found anywhere in a
//! comment, several per line, as `--verify-diagnostics` reads them.
//! Scanning a comment is linear in its length.

use std::ops::Range;

/// What a comment line is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CommentKind {
    Plain,
    Run,
    /// A FileCheck directive.
    Check,
    /// `expected-error` / `-warning` / `-note` / `-remark`.
    Expected,
    /// `COM:`, `XFAIL:`, `REQUIRES:`, `UNSUPPORTED:`, `ALLOW_RETRIES:`,
    /// `DEFINE:`, `REDEFINE:`.
    Other,
}

/// A part of a comment worth its own colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PieceKind {
    /// `RUN:`, `CHECK-NEXT:`, `expected-error@+1`.
    Directive,
    /// `{{regex}}` in a CHECK pattern.
    Regex,
    /// `[[VAR]]`, `[[VAR:regex]]`, `[[#N+1]]` in a CHECK pattern.
    Var,
    /// `{{text}}` of an `expected-*` comment.
    Expected,
}

/// FileCheck's comment directive: the rest of its line is prose.
pub const COMMENT_DIRECTIVE: &str = "COM";

/// The severities of `expected-*` comments.
pub const EXPECTED_KINDS: [&str; 4] = crate::lexer::expected::KINDS;

/// The FileCheck prefixes a document's RUN lines use: `CHECK` and the
/// `--check-prefix` / `--check-prefixes` values of each FileCheck stage
/// (`filecheck::args::command_args`), its arguments read by FileCheck's own option parser (`filecheck::args`) from
/// the stage as the runner splits the RUN line. A RUN line that does not
/// parse, or a FileCheck command line FileCheck would refuse, names none.
pub fn check_prefixes(text: &str) -> Vec<String> {
    let mut out = vec!["CHECK".to_string()];
    let subs = lit::run_line::Substitutions {
        source: "document.pfir".into(),
        temp: "document.pfir.tmp".into(),
        custom: Vec::new(),
    };
    let runs = run_line_texts(text);
    let pipelines = runs
        .iter()
        .filter_map(|run| lit::run_line::parse(run, &subs).ok())
        .flatten();
    for stage in pipelines.flat_map(|p| p.stages) {
        let Some(args) = filecheck::args::command_args(&stage.argv) else {
            continue;
        };
        let Ok(parsed) = filecheck::args::parse_args_with_color(args, || false) else {
            continue;
        };
        for p in parsed.opts.check_prefixes {
            if filecheck::is_valid_prefix(&p) && !out.contains(&p) {
                out.push(p);
            }
        }
    }
    out
}

/// The commands of the RUN lines of `text`, with `DEFINE:`/`REDEFINE:`
/// expanded as the runner reads them (`lit::define`); while the directives
/// do not read (a continuation being typed, a `REDEFINE` of a `lit.toml`
/// name, which the editor does not look up here), the commands of the RUN
/// lines and the values of the `DEFINE`/`REDEFINE` lines as written.
fn run_line_texts(text: &str) -> Vec<String> {
    match lit::define::expanded_run_lines(text, &[]) {
        Ok(lines) => lines.into_iter().map(|(_, expanded)| expanded).collect(),
        Err(_) => fsutil::lines::lines(text)
            .filter_map(|l| {
                let (_, rest) = l.split_once("RUN:").or_else(|| l.split_once("DEFINE:"))?;
                let command = if l.contains("DEFINE:") {
                    rest.split_once('=')?.1
                } else {
                    rest
                };
                Some(command.trim().to_string())
            })
            .collect(),
    }
}

/// What the comment `text[range]` (from `//` to the end of its line) is,
/// and its coloured parts, in order and disjoint.
pub fn scan_comment(
    text: &str,
    range: Range<usize>,
    prefixes: &[String],
) -> (CommentKind, Vec<(Range<usize>, PieceKind)>) {
    let Some(comment) = text.get(range.clone()) else {
        return (CommentKind::Plain, Vec::new());
    };
    let Some(after) = comment.strip_prefix("//") else {
        return (CommentKind::Plain, Vec::new());
    };
    let body = after.trim_start_matches([' ', '\t']);
    let word_start = range.start + (comment.len() - body.len());
    let word_len = body
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'-')
        .count();
    let word = &body[..word_len];
    let rest = &body[word_len..];
    let mut pieces = Vec::new();
    if word.is_empty() {
        return (CommentKind::Plain, pieces);
    }
    let directive = if word.starts_with("expected-") || !rest.starts_with(':') {
        None
    } else if word == lit::config::directive::RUN {
        Some(CommentKind::Run)
    } else if word == COMMENT_DIRECTIVE || lit::config::directive::ALL.contains(&word) {
        Some(CommentKind::Other)
    } else if is_check_directive(word, prefixes) {
        Some(CommentKind::Check)
    } else {
        None
    };
    let Some(kind) = directive else {
        // `expected-*` may stand anywhere in a comment, several per line, as
        // `--verify-diagnostics` reads them.
        expectations(text, range.clone(), &mut pieces);
        let kind = if pieces.is_empty() {
            CommentKind::Plain
        } else {
            CommentKind::Expected
        };
        return (kind, pieces);
    };
    let dir = word_start..word_start + word_len + 1;
    let dir_end = dir.end;
    pieces.push((dir, PieceKind::Directive));
    if kind == CommentKind::Check {
        let mut found = Vec::new();
        braces(
            text,
            dir_end..range.end,
            "{{",
            "}}",
            PieceKind::Regex,
            &mut found,
        );
        braces(
            text,
            dir_end..range.end,
            "[[",
            "]]",
            PieceKind::Var,
            &mut found,
        );
        found.sort_by_key(|(r, _)| r.start);
        let mut end = dir_end;
        for (r, k) in found {
            if r.start >= end {
                end = r.end;
                pieces.push((r, k));
            }
        }
    }
    (kind, pieces)
}

/// Appends every `expected-KIND[@N] {{text}}` of the comment `text[range]`,
/// as the one reader of them ([`crate::testing::expected`]) finds them.
fn expectations(text: &str, range: Range<usize>, out: &mut Vec<(Range<usize>, PieceKind)>) {
    use crate::lexer::expected::{Found, scan};
    let Some(comment) = text.get(range.clone()) else {
        return;
    };
    let at = |r: Range<usize>| range.start + r.start..range.start + r.end;
    for found in scan(comment) {
        if let Found::Directive(d) = found {
            out.push((at(d.head), PieceKind::Directive));
            if let Some(b) = d.braces {
                out.push((at(b), PieceKind::Expected));
            }
        }
    }
}

/// Whether `word` is `PREFIX`, `PREFIX-NEXT` ... or `PREFIX-COUNT-N` for one
/// of `prefixes`.
pub fn is_check_directive(word: &str, prefixes: &[String]) -> bool {
    prefixes.iter().any(|p| {
        let Some(rest) = word.strip_prefix(p.as_str()) else {
            return false;
        };
        if rest.is_empty() {
            return true;
        }
        let Some(suffix) = rest.strip_prefix('-') else {
            return false;
        };
        filecheck::is_directive_suffix(suffix)
    })
}

/// Appends every `open ... close` of `text[range]`.
fn braces(
    text: &str,
    range: Range<usize>,
    open: &str,
    close: &str,
    kind: PieceKind,
    out: &mut Vec<(Range<usize>, PieceKind)>,
) {
    let Some(hay) = text.get(range.clone()) else {
        return;
    };
    let mut from = 0;
    while let Some(i) = hay[from..].find(open) {
        let start = from + i;
        let inner = start + open.len();
        let Some(j) = hay[inner..].find(close) else {
            break;
        };
        let end = inner + j + close.len();
        out.push((range.start + start..range.start + end, kind));
        from = end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(line: &str) -> (CommentKind, Vec<(&str, PieceKind)>) {
        let prefixes = check_prefixes("// RUN: pfir opt %s | FileCheck %s --check-prefix=OUT");
        let (kind, pieces) = scan_comment(line, 0..line.len(), &prefixes);
        (
            kind,
            pieces.into_iter().map(|(r, k)| (&line[r], k)).collect(),
        )
    }

    #[test]
    fn finds_directives_and_their_parts() {
        use PieceKind::*;
        assert_eq!(
            scan("// CHECK-NEXT: a = {{.*}} [[X:b]] [[X]]"),
            (
                CommentKind::Check,
                vec![
                    ("CHECK-NEXT:", Directive),
                    ("{{.*}}", Regex),
                    ("[[X:b]]", Var),
                    ("[[X]]", Var)
                ]
            )
        );
        assert_eq!(scan("// OUT-DAG: x").1, vec![("OUT-DAG:", Directive)]);
        assert_eq!(scan("// RUN: pfir opt %s").0, CommentKind::Run);
        assert_eq!(
            scan("// expected-error@+1 {{unknown `x`}}"),
            (
                CommentKind::Expected,
                vec![
                    ("expected-error@+1", Directive),
                    ("{{unknown `x`}}", Expected)
                ]
            )
        );
        assert_eq!(scan("// CHECKS: no").0, CommentKind::Plain);
        assert_eq!(
            scan("// Note: expected-error {{x}}").0,
            CommentKind::Expected
        );
        assert_eq!(
            scan("// a expected-note {{n}} then expected-remark@-2 {{r}} notexpected-error"),
            (
                CommentKind::Expected,
                vec![
                    ("expected-note", Directive),
                    ("{{n}}", Expected),
                    ("expected-remark@-2", Directive),
                    ("{{r}}", Expected)
                ]
            )
        );
        assert_eq!(scan("// a comment: RUN:").0, CommentKind::Plain);
        assert_eq!(scan("// CHECK-COUNT-3: x").0, CommentKind::Check);
    }

    #[test]
    fn prefixes_come_from_run_lines() {
        let p = check_prefixes(
            "// RUN: a | FileCheck %s --check-prefixes=A,B-C\n// RUN: b | pfir filecheck -check-prefix X %s\n// RUN: c | not filecheck '--check-prefix=Q' %s\n",
        );
        assert_eq!(p, ["CHECK", "A", "B-C", "X", "Q"]);
    }

    #[test]
    fn prefixes_are_those_filecheck_would_take() {
        // Another program's options are not FileCheck's.
        let p = check_prefixes("// RUN: pfir opt --check-prefix=OPT < %s | FileCheck %s\n");
        assert_eq!(p, ["CHECK"]);
        // A command line FileCheck refuses (an unknown option) names none,
        // nor does a RUN line that does not parse (an open quote).
        let p = check_prefixes(
            "// RUN: a | FileCheck --no-such-option --check-prefix=A %s\n// RUN: a | FileCheck '--check-prefix=B %s\n",
        );
        assert_eq!(p, ["CHECK"]);
        // An invalid prefix is left out.
        let p = check_prefixes("// RUN: a | FileCheck --check-prefixes=OK,a.b %s\n");
        assert_eq!(p, ["CHECK", "OK"]);
    }

    #[test]
    fn prefixes_come_through_define_as_the_runner_reads_them() {
        let text = "// DEFINE: %{fc} = FileCheck %s --check-prefix=A\n\
                    // RUN: pfir opt %s | %{fc}\n\
                    // REDEFINE: %{fc} = FileCheck %s \\\n\
                    // REDEFINE:   --check-prefixes=B,C\n\
                    // RUN: pfir opt %s | %{fc}\n";
        assert_eq!(check_prefixes(text), ["CHECK", "A", "B", "C"]);
        // Directives that do not read (a `REDEFINE` of a name the file
        // does not define): the lines as written still name the prefixes.
        let text = "// REDEFINE: %{fc} = FileCheck %s --check-prefix=D\n// RUN: %{fc}\n";
        assert_eq!(check_prefixes(text), ["CHECK", "D"]);
        let (kind, pieces) = scan("// DEFINE: %{x} = 1");
        assert_eq!(
            (kind, pieces),
            (CommentKind::Other, vec![("DEFINE:", PieceKind::Directive)])
        );
        assert_eq!(scan("// REDEFINE: %{x} = 2").0, CommentKind::Other);
    }

    #[test]
    fn a_run_line_ends_at_a_lone_carriage_return() {
        // The words of the line after the RUN line are not its options.
        let p = check_prefixes("// RUN: a | FileCheck %s --check-prefix=A\r--check-prefix=NOT\r");
        assert_eq!(p, ["CHECK", "A"]);
    }

    #[test]
    fn split_markers_and_chunks_agree_on_a_lone_carriage_return() {
        let doc = super::super::document::Document::build("func a() {}\r// -----\rfunc b() {}\r");
        assert_eq!(doc.chunks.len(), 2);
        assert_eq!(doc.markers.len(), 1);
        assert_eq!(doc.markers[0], 12..20);
    }
}
