//! Failure reports: codespan-style diagnostics that point into the check
//! file (the directive) and the input ("scanning from here", "possible
//! intended match here", the offending match), and the annotated input dump
//! (LLVM's `--dump-input`). Everything rendered here is plain text and
//! deterministic.

use super::directives::{Directive, ParseError, Source};
use super::matcher::{Event, EventKind};
use super::text::{Canon, floor_boundary, line_col};
use super::{DumpInputFilter, FailureKind, FileCheckError, FileCheckFailure};
use codespan_reporting::diagnostic::{Diagnostic, Label};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term::{self, termcolor};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::ops::Range;

/// Everything needed to render reports for one run.
pub(crate) struct Context<'a> {
    pub check_name: &'a str,
    pub check_text: &'a str,
    pub check_canon: &'a Canon<'a>,
    pub input_name: &'a str,
    pub input_text: &'a str,
    pub input_canon: &'a Canon<'a>,
    pub implicit_not: &'a [String],
    /// Which input lines the dump shows, and how much context.
    pub dump_filter: DumpInputFilter,
    pub dump_context: usize,
    /// Colour the diagnostics with ANSI escapes.
    pub color: bool,
    /// Messages without a location in LLVM's layout (`error: ...`).
    pub llvm: bool,
}

struct Files<'a> {
    files: SimpleFiles<String, Cow<'a, str>>,
    check: usize,
    input: usize,
    cmdline: usize,
    /// Pattern ranges of the implicit CHECK-NOTs in the command-line file.
    implicit: Vec<Range<usize>>,
}

/// The range `start..end` clamped to char boundaries of `text`.
fn clamp(text: &str, start: usize, end: usize) -> Range<usize> {
    let start = floor_boundary(text, start);
    let mut end = end.clamp(start, text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    start..end
}

impl<'a> Context<'a> {
    fn files(&self) -> Files<'a> {
        let mut files = SimpleFiles::new();
        let check = files.add(self.check_name.to_string(), Cow::Borrowed(self.check_text));
        let input = files.add(self.input_name.to_string(), Cow::Borrowed(self.input_text));
        let mut cmd = String::new();
        let mut implicit = Vec::new();
        for p in self.implicit_not {
            cmd.push_str("--implicit-check-not='");
            implicit.push(cmd.len()..cmd.len() + p.len());
            cmd.push_str(p);
            cmd.push_str("'\n");
        }
        let cmdline = files.add("command line".to_string(), Cow::Owned(cmd));
        Files {
            files,
            check,
            input,
            cmdline,
            implicit,
        }
    }

    fn render(&self, files: &Files<'_>, diags: &[Diagnostic<usize>]) -> String {
        let config = term::Config::default();
        let mut out = String::new();
        for d in diags {
            let mut buffer = if self.color {
                termcolor::Buffer::ansi()
            } else {
                termcolor::Buffer::no_color()
            };
            if term::emit_to_write_style(&mut buffer, &config, &files.files, d).is_ok() {
                out.push_str(&String::from_utf8_lossy(buffer.as_slice()));
            } else {
                let _ = writeln!(out, "error: {}", d.message);
            }
        }
        out
    }

    /// A failure without a location (usage errors, empty input, ...).
    pub fn unlocated(&self, kind: FailureKind, message: String) -> FileCheckFailure {
        let report = if self.llvm {
            let mut out = String::new();
            // LLVM writes its errors about options and prefixes to `errs()`
            // as plain text, in any colour mode.
            let color = self.color && kind != FailureKind::Usage;
            super::llvm::unlocated(&mut out, color, &message);
            out
        } else {
            let files = self.files();
            self.render(&files, &[Diagnostic::error().with_message(&message)])
        };
        FileCheckFailure {
            kind,
            errors: vec![FileCheckError {
                file: String::new(),
                line: 0,
                col: 0,
                message,
            }],
            report,
        }
    }

    /// A malformed check file.
    pub fn parse_error(&self, e: &ParseError) -> FileCheckFailure {
        let Some(off) = e.offset else {
            return self.unlocated(FailureKind::CheckFile, e.message.clone());
        };
        let files = self.files();
        let start = self.check_canon.orig(off);
        let width = self.check_text[start..]
            .chars()
            .next()
            .filter(|c| *c != '\n' && *c != '\r')
            .map_or(0, char::len_utf8);
        let (line, col) = line_col(self.check_text, start);
        let diag = Diagnostic::error()
            .with_message(&e.message)
            .with_labels(vec![Label::primary(files.check, start..start + width)]);
        FileCheckFailure {
            kind: FailureKind::CheckFile,
            errors: vec![FileCheckError {
                file: self.check_name.to_string(),
                line,
                col,
                message: e.message.clone(),
            }],
            report: self.render(&files, &[diag]),
        }
    }

    /// Where a directive is: file id, range, and its (file, line, col).
    fn directive_loc(
        &self,
        files: &Files<'_>,
        d: &Directive,
    ) -> (usize, Range<usize>, FileCheckError) {
        match d.source {
            Source::ImplicitNot(i) => {
                let r = files.implicit[i].clone();
                let col = r.start + 1;
                (
                    files.cmdline,
                    r,
                    FileCheckError {
                        file: "command line".into(),
                        line: i + 1,
                        col,
                        message: String::new(),
                    },
                )
            }
            Source::CheckFile => {
                let (s, e) = if d.pat.text.is_empty() {
                    (d.prefix_offset, d.pattern_offset)
                } else {
                    (d.pattern_offset, d.pattern_offset + d.pat.text.len())
                };
                let (os, oe) = (self.check_canon.orig(s), self.check_canon.orig(e));
                let at = self.check_canon.orig(d.pattern_offset);
                let (line, col) = line_col(self.check_text, at);
                (
                    files.check,
                    clamp(self.check_text, os, oe),
                    FileCheckError {
                        file: self.check_name.to_string(),
                        line,
                        col,
                        message: String::new(),
                    },
                )
            }
        }
    }

    fn input_range(&self, start: usize, end: usize) -> Range<usize> {
        clamp(
            self.input_text,
            self.input_canon.orig(start),
            self.input_canon.orig(end),
        )
    }

    /// Every event as a [`DirectiveResult`], offsets in the original input.
    pub fn directive_results(&self, events: &[Event<'_>]) -> Vec<crate::DirectiveResult> {
        use crate::DirectiveStatus as S;
        let canon = &self.input_canon.text;
        events
            .iter()
            .filter(|ev| !ev.extra)
            .map(|ev| {
                let d = ev.dir;
                let name = d.name();
                let (status, message) = match &ev.kind {
                    EventKind::Match => (S::Matched, String::new()),
                    EventKind::Discarded => unreachable!("always extra"),
                    EventKind::NotFound => (
                        S::NotFound,
                        format!("{name}: expected string not found in input"),
                    ),
                    EventKind::Excluded => (
                        S::Excluded,
                        format!("{name}: excluded string found in input"),
                    ),
                    EventKind::WrongLine { message, .. } => (S::WrongLine, message.clone()),
                    EventKind::Error(msg) => (S::Error, format!("{name}: {msg}")),
                };
                let candidate = (status == S::NotFound)
                    .then(|| fuzzy_match(&d.pat.text, &canon[ev.start..ev.end]))
                    .flatten()
                    .map(|(s, e)| self.input_range(ev.start + s, ev.start + e));
                crate::DirectiveResult {
                    check_line: match d.source {
                        Source::CheckFile => d.line,
                        Source::ImplicitNot(_) => 0,
                    },
                    name,
                    nth: ev.nth,
                    status,
                    input: self.input_range(ev.start, ev.end),
                    candidate,
                    message,
                }
            })
            .collect()
    }

    /// A failed match: one diagnostic per error event, then the dump.
    pub fn mismatch(&self, events: &[Event<'_>], with_dump: bool) -> FileCheckFailure {
        self.mismatch_as(events, with_dump, true)
    }

    /// A failed match's errors, without its report (LLVM's report is
    /// printed instead): no codespan rendering, no possible intended match.
    pub fn mismatch_errors(&self, events: &[Event<'_>]) -> FileCheckFailure {
        self.mismatch_as(events, false, false)
    }

    fn mismatch_as(&self, events: &[Event<'_>], with_dump: bool, render: bool) -> FileCheckFailure {
        let files = self.files();
        let canon = &self.input_canon.text;
        let mut diags = Vec::new();
        let mut errors = Vec::new();
        for ev in events.iter().filter(|e| e.is_error()) {
            let d = ev.dir;
            let (fid, range, mut loc) = self.directive_loc(&files, d);
            let name = d.name();
            let mut labels = vec![Label::primary(fid, range)];
            let message = match &ev.kind {
                EventKind::NotFound => {
                    let skip = canon[ev.start..ev.end]
                        .find(|c: char| !matches!(c, ' ' | '\t' | '\n' | '\r'))
                        .unwrap_or(ev.end - ev.start);
                    let at = ev.start + skip;
                    let w = canon[at..].chars().next().map_or(0, char::len_utf8);
                    labels.push(
                        Label::secondary(files.input, self.input_range(at, at + w))
                            .with_message("scanning from here"),
                    );
                    let fuzzy = render
                        .then(|| fuzzy_match(&d.pat.text, &canon[ev.start..ev.end]))
                        .flatten();
                    if let Some((s, e)) = fuzzy {
                        labels.push(
                            Label::secondary(
                                files.input,
                                self.input_range(ev.start + s, ev.start + e),
                            )
                            .with_message("possible intended match here"),
                        );
                    }
                    if d.pat.count > 1 {
                        format!(
                            "{name}: expected string not found in input ({} out of {} matched)",
                            ev.nth - 1,
                            d.pat.count
                        )
                    } else {
                        format!("{name}: expected string not found in input")
                    }
                }
                EventKind::Excluded => {
                    labels.push(
                        Label::secondary(files.input, self.input_range(ev.start, ev.end))
                            .with_message("found here"),
                    );
                    format!("{name}: excluded string found in input")
                }
                EventKind::WrongLine { prev_end, message } => {
                    labels.push(
                        Label::secondary(files.input, self.input_range(ev.start, ev.end))
                            .with_message(format!(
                                "'{}' match was here",
                                d.pat.kind.suffix().trim_start_matches('-').to_lowercase()
                            )),
                    );
                    labels.push(
                        Label::secondary(files.input, self.input_range(*prev_end, *prev_end))
                            .with_message("previous match ended here"),
                    );
                    message.clone()
                }
                EventKind::Error(msg) => {
                    labels.push(
                        Label::secondary(files.input, self.input_range(ev.start, ev.start))
                            .with_message("scanning from here"),
                    );
                    format!("{name}: {msg}")
                }
                EventKind::Match | EventKind::Discarded => unreachable!("filtered"),
            };
            loc.message = message.clone();
            errors.push(loc);
            diags.push(
                Diagnostic::error()
                    .with_message(message)
                    .with_labels(labels),
            );
        }
        let mut report = if render {
            self.render(&files, &diags)
        } else {
            String::new()
        };
        if with_dump {
            report.push_str(&self.dump(events));
        }
        FileCheckFailure {
            kind: FailureKind::Mismatch,
            errors,
            report,
        }
    }

    /// `-v`: one note per successful match ("expected string found in
    /// input"), as LLVM's remarks.
    pub fn remarks(&self, events: &[Event<'_>]) -> String {
        let files = self.files();
        let diags: Vec<Diagnostic<usize>> = events
            .iter()
            .filter(|e| e.kind == EventKind::Match && !e.extra)
            .map(|ev| {
                let (fid, range, _) = self.directive_loc(&files, ev.dir);
                Diagnostic::note()
                    .with_message(format!("{}: expected string found in input", ev.dir.name()))
                    .with_labels(vec![
                        Label::primary(fid, range),
                        Label::secondary(files.input, self.input_range(ev.start, ev.end))
                            .with_message("found here"),
                    ])
            })
            .collect();
        self.render(&files, &diags)
    }

    /// The annotated input dump.
    pub fn dump(&self, events: &[Event<'_>]) -> String {
        // The input as the user wrote it (indentation included, as LLVM
        // shows it); event offsets are canonical and mapped back.
        let text = self.input_text;
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        if text.ends_with('\n') {
            line_starts.pop();
        }
        let (anns, cont) = self.annotations(events, &line_starts);
        let ranges = self.shown_lines(&anns, &cont, line_starts.len());
        self.render_dump(&line_starts, &anns, &cont, &ranges)
    }

    /// The dump's annotations by input line (sparse: a long input has
    /// few), and the lines a scanned region continues over (label, first,
    /// last).
    fn annotations(&self, events: &[Event<'_>], line_starts: &[usize]) -> (Annotations, Continued) {
        let text = self.input_text;
        let canon = self.input_canon;
        let line_of = |off: usize| line_starts.partition_point(|&s| s <= off).max(1) - 1;
        let mut anns: Annotations = BTreeMap::new();
        let mut cont: Continued = Vec::new();
        for ev in events.iter().filter(|e| !e.extra) {
            if text.is_empty() {
                break;
            }
            let (ev_start, ev_end) = (canon.orig(ev.start), canon.orig(ev.end));
            let d = ev.dir;
            let label = match d.source {
                Source::ImplicitNot(i) => format!("not:imp{}", i + 1),
                Source::CheckFile if d.pat.count > 1 => format!("check:{}'{}", d.line, ev.nth),
                Source::CheckFile => format!("check:{}", d.line),
            };
            let li = line_of(ev_start);
            let ls = line_starts[li];
            let le = text[ls..].find('\n').map_or(text.len(), |p| ls + p);
            let col = text[ls..ev_start.clamp(ls, le)].chars().count();
            let upto = |end: usize| {
                text[ev_start.clamp(ls, le)..end.clamp(ls, le)]
                    .chars()
                    .count()
            };
            let (marker, width, note) = match &ev.kind {
                EventKind::Match => ('^', upto(ev_end), String::new()),
                EventKind::Discarded => unreachable!("always extra"),
                EventKind::NotFound => ('X', upto(le), "error: no match found".to_string()),
                EventKind::Excluded => ('!', upto(ev_end), "error: no match expected".into()),
                EventKind::WrongLine { .. } => {
                    ('!', upto(ev_end), "error: match on wrong line".into())
                }
                EventKind::Error(m) => ('X', 1, format!("error: {m}")),
            };
            if ev.kind == EventKind::NotFound && ev_end > le + 1 {
                // The scanned region continues on the following lines.
                let last = line_of(ev_end - 1);
                if last > li {
                    cont.push((label.clone(), li + 1, last));
                }
            }
            anns.entry(li).or_default().push(Ann {
                label,
                col,
                width: width.max(1),
                marker,
                note,
                error: ev.is_error(),
            });
        }
        (anns, cont)
    }

    /// The ranges of input lines to show (of `n`), merged: those the
    /// filter selects, with context.
    fn shown_lines(&self, anns: &Annotations, cont: &Continued, n: usize) -> Vec<(usize, usize)> {
        let selected: Vec<usize> = match self.dump_filter {
            DumpInputFilter::All => return vec![(0, n.saturating_sub(1))],
            DumpInputFilter::AnnotationFull => {
                let mut v: Vec<usize> = anns.keys().copied().collect();
                for (_, first, last) in cont {
                    v.extend(*first..=*last);
                }
                v.sort_unstable();
                v.dedup();
                v
            }
            DumpInputFilter::Annotation => anns.keys().copied().collect(),
            DumpInputFilter::Error => anns
                .iter()
                .filter(|(_, a)| a.iter().any(|a| a.error))
                .map(|(l, _)| *l)
                .collect(),
        };
        let mut ranges: Vec<(usize, usize)> = Vec::new();
        for &l in &selected {
            let (lo, hi) = (
                l.saturating_sub(self.dump_context),
                (l + self.dump_context).min(n - 1),
            );
            match ranges.last_mut() {
                Some((_, h)) if lo <= *h + 1 => *h = (*h).max(hi),
                _ => ranges.push((lo, hi)),
            }
        }
        ranges
    }

    /// Writes the dump: the lines of `ranges` with their annotations below
    /// them, `.` where lines are left out.
    fn render_dump(
        &self,
        line_starts: &[usize],
        anns: &Annotations,
        cont: &Continued,
        ranges: &[(usize, usize)],
    ) -> String {
        let text = self.input_text;
        let n = line_starts.len();
        let label_w = anns
            .values()
            .flatten()
            .map(|a| a.label.len())
            .chain([n.to_string().len(), 6])
            .max()
            .unwrap_or(6);
        let mut out = format!(
            "\nInput file: {}\nCheck file: {}\n\n--dump-input=help explains the following input dump.\n\nInput was:\n<<<<<<\n",
            self.input_name, self.check_name
        );
        let mut next_line = 0;
        for &(lo, hi) in ranges {
            if n == 0 {
                break;
            }
            if lo > next_line {
                let _ = writeln!(out, "{:>label_w$}", ".");
            }
            next_line = hi + 1;
            for (i, &ls) in line_starts.iter().enumerate().take(hi + 1).skip(lo) {
                let le = text[ls..].find('\n').map_or(text.len(), |p| ls + p);
                let line = text[ls..le].replace('\t', " ");
                let _ = writeln!(out, "{:>label_w$}: {}", i + 1, line.trim_end_matches('\r'));
                for (label, _, _) in cont.iter().filter(|(_, f, l)| (*f..=*l).contains(&i)) {
                    let width = text[ls..le].chars().count().max(1);
                    let _ = writeln!(out, "{label:<label_w$}  {}", "~".repeat(width));
                }
                for a in anns.get(&i).into_iter().flatten() {
                    let mut l = format!("{:<label_w$}  {}{}", a.label, " ".repeat(a.col), a.marker);
                    l.push_str(&"~".repeat(a.width - 1));
                    if !a.note.is_empty() {
                        l.push(' ');
                        l.push_str(&a.note);
                    }
                    let _ = writeln!(out, "{l}");
                }
            }
        }
        if n > 0 && next_line < n {
            let _ = writeln!(out, "{:>label_w$}", ".");
        }
        out.push_str(">>>>>>\n");
        out
    }
}

/// One annotation line of the input dump.
struct Ann {
    label: String,
    col: usize,
    width: usize,
    marker: char,
    note: String,
    error: bool,
}

/// The dump's annotations by input line.
type Annotations = BTreeMap<usize, Vec<Ann>>;

/// The lines a scanned region continues over: (label, first, last).
type Continued = Vec<(String, usize, usize)>;

/// The literal parts of a pattern (regexes and variables dropped).
fn literal_parts(pattern: &str) -> String {
    let mut out = String::new();
    let mut rest = pattern;
    while !rest.is_empty() {
        let (open, close) = if rest.starts_with("{{") {
            ("{{", "}}")
        } else if rest.starts_with("[[") {
            ("[[", "]]")
        } else {
            let mut chars = rest.chars();
            out.extend(chars.next());
            rest = chars.as_str();
            continue;
        };
        match rest[open.len()..].find(close) {
            Some(e) => rest = &rest[open.len() + e + close.len()..],
            None => break,
        }
    }
    out.trim().to_string()
}

/// The input line (range in `region`) most similar to the pattern's literal
/// text, if it is similar enough (an approximation of LLVM's heuristic).
fn fuzzy_match(pattern: &str, region: &str) -> Option<(usize, usize)> {
    let needle: Vec<char> = literal_parts(pattern).chars().take(200).collect();
    if needle.len() < 2 {
        return None;
    }
    let mut best: Option<(usize, usize, usize)> = None;
    let mut budget: usize = 4_000_000;
    let mut start = 0;
    for line in region.split_inclusive('\n').take(4096) {
        let body = line.trim_end_matches('\n');
        let trimmed = body.trim_start();
        let lead = body.len() - trimmed.len();
        let hay: Vec<char> = trimmed.trim_end().chars().collect();
        let cost = hay.len() * needle.len();
        if cost > budget {
            break;
        }
        budget -= cost;
        if !hay.is_empty() {
            let d = substring_distance(&needle, &hay);
            if best.is_none_or(|(b, _, _)| d < b) {
                best = Some((d, start + lead, start + lead + trimmed.trim_end().len()));
            }
        }
        start += line.len();
    }
    best.filter(|&(d, _, _)| d <= needle.len() / 3)
        .map(|(_, s, e)| (s, e))
}

/// Edit distance between `needle` and the best-matching substring of `hay`.
fn substring_distance(needle: &[char], hay: &[char]) -> usize {
    let mut prev: Vec<usize> = (0..=needle.len()).collect();
    let mut best = prev[needle.len()];
    for &h in hay {
        let mut cur = vec![0usize; needle.len() + 1];
        for (j, &n) in needle.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(n != h))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        best = best.min(cur[needle.len()]);
        prev = cur;
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_parts_drop_regexes() {
        assert_eq!(literal_parts("add {{.*}} [[X:a]] x"), "add   x");
    }

    #[test]
    fn fuzzy_finds_close_line() {
        let region = "nothing\n  call @fo0(i32 1)\nother\n";
        let (s, e) = fuzzy_match("call @foo(i32 1)", region).unwrap();
        assert_eq!(&region[s..e], "call @fo0(i32 1)");
        assert!(fuzzy_match("completely different", "abc\n").is_none());
    }
}
