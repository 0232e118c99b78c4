//! LLVM FileCheck's own report, byte for byte where LLVM's test suite looks:
//! `FILE:LINE:COL: error: MESSAGE`, the line and a caret (LLVM's
//! `SourceMgr` layout: tabs expanded to 8 columns, `~` under ranges),
//! the notes (`scanning from here`, `possible intended match here`,
//! `found here`, ...) at LLVM's positions, `-v` remarks, and the annotated
//! input dump with LLVM's labels (`next:2'0`) and elision.
//!
//! Like LLVM, everything is located in the canonical buffers (horizontal
//! whitespace collapsed unless `--strict-whitespace`, `\r\n` made `\n`):
//! lines, columns (bytes, 1-based) and the quoted lines are theirs. This
//! module is only called when a report is printed (a failure, `-v`, or
//! `--dump-input=always`); matching never builds any of it.

use super::directives::{Directive, ParseError, Source};
use super::matcher::{Event, EventKind};
use super::pattern::{CheckKind, llvm_regex_escape};
use std::fmt::Write as _;
use std::ops::Range;

/// Explanation printed for `--dump-input=help` (LLVM's text).
pub(crate) const DUMP_HELP: &str = "\
The following description was requested by -dump-input=help to
explain the input dump printed by FileCheck.

Related command-line options:

  - -dump-input=<value> enables or disables the input dump
  - -dump-input-filter=<value> filters the input lines
  - -dump-input-context=<N> adjusts the context of filtered lines
  - -v and -vv add more annotations
  - -color forces colors to be enabled both in the dump and below
  - -help documents the above options in more detail

These options can also be set via FILECHECK_OPTS.  For example, for
maximum debugging output on failures:

  $ FILECHECK_OPTS='-dump-input-filter=all -vv -color' ninja check

Input dump annotation format:

  - L:     labels line number L of the input file
           An extra space is added after each input line to represent the
           newline character
  - T:L    labels the only match result for either (1) a pattern of type T from
           line L of the check file if L is an integer or (2) the I-th implicit
           pattern if L is \"imp\" followed by an integer I (index origin one)
  - T:L'N  labels the Nth match result for such a pattern
  - ^~~    marks good match (reported if -v)
  - !~~    marks bad match, such as:
           - CHECK-NEXT on same line as previous match (error)
           - CHECK-NOT found (error)
           - CHECK-DAG overlapping match (discarded, reported if -vv)
  - X~~    marks search range when no match is found, such as:
           - CHECK-NEXT not found (error)
           - CHECK-NOT not found (success, reported if -vv)
           - CHECK-DAG not found after discarded matches (error)
  - ?      marks fuzzy match when no match is found
  - ...    indicates elided input lines and annotations, as specified by
           -dump-input-filter and -dump-input-context
  - colors success, error, fuzzy match, discarded match, unmatched input
";

/// [`DUMP_HELP`] as LLVM prints it: with `color`, each annotation's label
/// in bold and the colour names in their colours.
pub(crate) fn dump_help(color: bool) -> String {
    if !color {
        return DUMP_HELP.to_string();
    }
    let mut out = String::with_capacity(DUMP_HELP.len() + 256);
    let mut annotations = false;
    for line in DUMP_HELP.lines() {
        if line == "Input dump annotation format:" {
            annotations = true;
        }
        match line.strip_prefix("  - ") {
            Some("colors success, error, fuzzy match, discarded match, unmatched input") => {
                out.push_str(
                    "  - colors \x1b[0;1;32msuccess\x1b[0m, \x1b[0;1;31merror\x1b[0m, \
                     \x1b[0;1;35mfuzzy match\x1b[0m, \x1b[0;1;36mdiscarded match\x1b[0m, \
                     \x1b[0;1;46munmatched input\x1b[0m",
                );
            }
            Some(item) if annotations => {
                let end = item.find(' ').unwrap_or(item.len());
                let (label, rest) = item.split_at(end);
                let _ = write!(out, "  - \x1b[1m{label}\x1b[0m{rest}");
            }
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// The check-file errors LLVM prints with `SourceMgr::PrintMessage`
/// directly (no blank line after them), by how their message starts.
const PRINTED_DIRECTLY: [&str; 15] = [
    "found empty check string",
    "found non-empty check string",
    "found start of regex string",
    "Invalid substitution block",
    "unexpected whitespace",
    "invalid name in string variable definition",
    "numeric variable with name",
    "invalid name in string variable use",
    "Can't back-reference",
    "invalid regex",
    "missing closing",
    "misspelled directive",
    "unsupported -NOT combo",
    "invalid count in -COUNT",
    "found '",
];

/// LLVM's colour for input text no expected pattern matched (`-v`).
const UNMATCHED: &str = "\x1b[0;1;46m";

/// LLVM's tab stop in quoted lines.
const TAB_STOP: usize = 8;

/// How far LLVM looks for a "possible intended match", in bytes.
const FUZZY_WINDOW: usize = 4096;

/// A "possible intended match" must be closer than this (LLVM's bound).
const FUZZY_QUALITY: usize = 50;

/// A buffer as LLVM's `SourceMgr` holds it: a name and canonical text.
#[derive(Clone, Copy)]
pub(crate) struct Buffer<'a> {
    pub name: &'a str,
    pub text: &'a str,
}

/// What a report needs beyond the events.
pub(crate) struct Llvm<'a> {
    pub check: Buffer<'a>,
    pub input: Buffer<'a>,
    pub implicit_not: &'a [String],
    pub match_full_lines: bool,
    pub strict_whitespace: bool,
    pub color: bool,
    pub verbose: u8,
    /// Whether the dump is wanted at all (LLVM prints `-v` remarks only
    /// when it is not: they go into the dump instead).
    pub dumping: bool,
    /// Which input lines the dump shows, and how much context.
    pub dump_filter: crate::DumpInputFilter,
    pub dump_context: usize,
}

/// The kind label of a diagnostic.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Error,
    Note,
    Remark,
}

impl Kind {
    fn label(self) -> &'static str {
        match self {
            Kind::Error => "error",
            Kind::Note => "note",
            Kind::Remark => "remark",
        }
    }

    fn color(self) -> &'static str {
        match self {
            Kind::Error => "\x1b[0;1;31m",
            Kind::Note => "\x1b[0;1;30m",
            Kind::Remark => "\x1b[0;1;34m",
        }
    }
}

/// One message of LLVM's `SourceMgr::PrintMessage`: `pos` and the ranges
/// are byte offsets into `buf.text`.
fn print(
    out: &mut String,
    color: bool,
    buf: Buffer<'_>,
    pos: usize,
    kind: Kind,
    message: &str,
    ranges: &[Range<usize>],
) {
    let text = buf.text.as_bytes();
    let pos = pos.min(text.len());
    let ls = text[..pos]
        .iter()
        .rposition(|&b| b == b'\n' || b == b'\r')
        .map_or(0, |p| p + 1);
    let le = text[pos..]
        .iter()
        .position(|&b| b == b'\n' || b == b'\r')
        .map_or(text.len(), |p| pos + p);
    let line = 1 + memchr::memchr_iter(b'\n', &text[..pos]).count();
    let col = pos
        - text[..pos]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1)
        + 1;
    let name = if buf.name == "-" { "<stdin>" } else { buf.name };
    if color {
        let _ = write!(
            out,
            "\x1b[1m{name}:{line}:{col}: \x1b[0m{}{}: \x1b[0m\x1b[1m{message}\n\x1b[0m",
            kind.color(),
            kind.label()
        );
    } else {
        let _ = writeln!(out, "{name}:{line}:{col}: {}: {message}", kind.label());
    }
    let content = &text[ls..le];
    if !content.is_ascii() {
        push_expanded(out, content);
        return;
    }
    let n = content.len();
    let mut caret = vec![b' '; n + 1];
    for r in ranges {
        if r.start > le || r.end < ls {
            continue;
        }
        let (s, e) = (r.start.max(ls) - ls, r.end.min(le) - ls);
        for c in caret.iter_mut().take(e.min(n + 1)).skip(s) {
            *c = b'~';
        }
    }
    caret[(pos - ls).min(n)] = b'^';
    while caret.last() == Some(&b' ') {
        caret.pop();
    }
    push_expanded(out, content);
    if color {
        out.push_str("\x1b[0;1;32m");
    }
    let mut col = 0;
    for (i, &c) in caret.iter().enumerate() {
        if content.get(i) == Some(&b'\t') {
            loop {
                out.push(c as char);
                col += 1;
                if col % TAB_STOP == 0 {
                    break;
                }
            }
        } else {
            out.push(c as char);
            col += 1;
        }
    }
    out.push('\n');
    if color {
        out.push_str("\x1b[0m");
    }
}

/// A source line with its tabs expanded to LLVM's tab stops.
fn push_expanded(out: &mut String, line: &[u8]) {
    let mut col = 0;
    for piece in line.split_inclusive(|&b| b == b'\t') {
        let (body, tab) = match piece.split_last() {
            Some((b'\t', body)) => (body, true),
            _ => (piece, false),
        };
        out.push_str(&String::from_utf8_lossy(body));
        col += body.len();
        if tab {
            loop {
                out.push(' ');
                col += 1;
                if col % TAB_STOP == 0 {
                    break;
                }
            }
        }
    }
    out.push('\n');
}

/// The 1-based line and column (in bytes) of `pos` in `text`, as LLVM's
/// `SourceMgr::getLineAndColumn`, through a table of line starts.
struct Lines {
    /// Offsets just after each `\n`.
    starts: Vec<usize>,
}

impl Lines {
    fn new(text: &str) -> Lines {
        let mut starts = vec![0];
        starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|p| p + 1));
        Lines { starts }
    }

    fn line_col(&self, pos: usize) -> (usize, usize) {
        let line = self.starts.partition_point(|&s| s <= pos);
        (line, pos - self.starts[line - 1] + 1)
    }
}

/// LLVM's marker styles (`GetMarker`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum MatchType {
    FoundAndExpected,
    FoundButExcluded,
    FoundButWrongLine,
    FoundButDiscarded,
    NoneAndExcluded,
    NoneButExpected,
    NoneForInvalidPattern,
    Fuzzy,
}

impl MatchType {
    /// Lead character, default note, and whether the filter `error` keeps it.
    fn marker(self) -> (char, &'static str, bool) {
        match self {
            MatchType::FoundAndExpected => ('^', "", false),
            MatchType::FoundButExcluded => ('!', "error: no match expected", true),
            MatchType::FoundButWrongLine => ('!', "error: match on wrong line", true),
            MatchType::FoundButDiscarded => ('!', "discard: overlaps earlier match", false),
            MatchType::NoneAndExcluded => ('X', "", false),
            MatchType::NoneButExpected => ('X', "error: no match found", true),
            MatchType::NoneForInvalidPattern => {
                ('X', "error: match failed for invalid pattern", true)
            }
            MatchType::Fuzzy => ('?', "possible intended match", true),
        }
    }

    fn color(self) -> &'static str {
        match self {
            MatchType::FoundAndExpected | MatchType::NoneAndExcluded => "\x1b[0;1;32m",
            MatchType::Fuzzy => "\x1b[0;1;35m",
            MatchType::FoundButDiscarded => "\x1b[0;1;36m",
            _ => "\x1b[0;1;31m",
        }
    }
}

/// One entry of LLVM's `Diags`: what the dump annotates.
struct DumpDiag {
    /// Identifies the pattern (its annotations are numbered together).
    key: (usize, usize),
    /// `check:3`, `not:imp1`: the label before any `'N`.
    label: String,
    ty: MatchType,
    range: Range<usize>,
    /// A note replacing the marker's default one.
    note: Option<String>,
}

/// Everything a run prints, in LLVM's order.
pub(crate) struct Rendered {
    /// Errors, notes and remarks, as LLVM prints them while matching.
    pub messages: String,
    /// The annotated input dump (when asked for).
    pub dump: Option<String>,
}

impl Llvm<'_> {
    /// The check type's description (`CHECK-NEXT`, `CHECK-COUNT`,
    /// `CHECK{LITERAL}`), as LLVM's `getDescription`.
    fn description(d: &Directive) -> String {
        if d.pat.kind == CheckKind::Eof {
            return "implicit EOF".into();
        }
        let modifiers = if d.literal { "{LITERAL}" } else { "" };
        let suffix = if d.pat.count > 1 {
            "-COUNT"
        } else {
            d.pat.kind.suffix()
        };
        format!("{}{suffix}{modifiers}", d.prefix)
    }

    /// The `-implicit-check-not='...'` buffer LLVM makes for pattern `i`.
    fn implicit_buffer(&self, i: usize) -> String {
        format!("-implicit-check-not='{}'", self.implicit_not[i])
    }

    /// Prints a message at the directive's pattern (LLVM's `Loc`).
    fn at_directive(&self, out: &mut String, d: &Directive, kind: Kind, message: &str, off: usize) {
        match d.source {
            Source::CheckFile => print(
                out,
                self.color,
                self.check,
                d.pattern_offset + off,
                kind,
                message,
                &[],
            ),
            Source::ImplicitNot(i) => {
                let text = self.implicit_buffer(i);
                let buf = Buffer {
                    name: "command line",
                    text: &text,
                };
                print(out, self.color, buf, 21 + off, kind, message, &[]);
            }
        }
    }

    fn at_input(
        &self,
        out: &mut String,
        pos: usize,
        kind: Kind,
        message: &str,
        range: Option<Range<usize>>,
    ) {
        let ranges: Vec<Range<usize>> = range.into_iter().collect();
        print(out, self.color, self.input, pos, kind, message, &ranges);
    }

    /// LLVM's `found here` note under the match of `ev`.
    fn found_here(&self, out: &mut String, ev: &Event<'_>) {
        self.at_input(
            out,
            ev.start,
            Kind::Note,
            "found here",
            Some(ev.start..ev.end),
        );
    }

    /// A malformed check file. LLVM prints most errors of its variable
    /// and expression parser through `logAllUnhandledErrors`, which adds
    /// a blank line; the rest (those of [`PRINTED_DIRECTLY`]) not.
    pub fn parse_error(&self, e: &ParseError) -> String {
        let mut out = String::new();
        match e.offset {
            Some(off) => {
                print(
                    &mut out,
                    self.color,
                    self.check,
                    off,
                    Kind::Error,
                    &e.message,
                    &[],
                );
                if !PRINTED_DIRECTLY.iter().any(|p| e.message.starts_with(p)) {
                    out.push('\n');
                }
            }
            // LLVM writes this one to `errs()` as plain text, in any colour mode.
            None if e.message.starts_with("no check strings found") => {
                unlocated(&mut out, false, &e.message)
            }
            None => unlocated(&mut out, self.color, &e.message),
        }
        out
    }

    /// The report of a run: messages in matching order, then the dump.
    pub fn render(&self, events: &[Event<'_>], with_dump: bool) -> Rendered {
        let mut out = String::new();
        let mut diags: Vec<DumpDiag> = Vec::new();
        let verbose_remarks = self.verbose > 0 && !self.dumping;
        let mut i = 0;
        while i < events.len() {
            let ev = &events[i];
            let d = ev.dir;
            let desc = Self::description(d);
            let key = key_of(d);
            let label = self.label_of(d);
            let diag = |ty: MatchType, range: Range<usize>, note: Option<String>| DumpDiag {
                key,
                label: label.clone(),
                ty,
                range,
                note,
            };
            match &ev.kind {
                EventKind::Match => {
                    let ty = MatchType::FoundAndExpected;
                    if self.verbose > 0 {
                        diags.push(diag(ty, ev.start..ev.end, None));
                    }
                    if verbose_remarks {
                        let mut m = format!("{desc}: expected string found in input");
                        if d.pat.count > 1 {
                            let _ = write!(m, " ({} out of {})", ev.nth, d.pat.count);
                        }
                        self.at_directive(&mut out, d, Kind::Remark, &m, 0);
                        self.found_here(&mut out, ev);
                    }
                    if self.verbose > 0 {
                        self.substitutions(&mut out, &mut diags, ev, ty, verbose_remarks, &label);
                    }
                }
                EventKind::Discarded => {
                    // `-vv`: the match just reported overlaps `start..end`.
                    if verbose_remarks {
                        self.at_input(
                            &mut out,
                            ev.start,
                            Kind::Note,
                            "match discarded, overlaps earlier DAG match here",
                            Some(ev.start..ev.end),
                        );
                    }
                    for dd in diags.iter_mut().rev().take_while(|dd| dd.key == key) {
                        dd.ty = MatchType::FoundButDiscarded;
                    }
                }
                EventKind::NotFound if ev.extra => {
                    // -vv: a CHECK-NOT not found, as it should be.
                    if verbose_remarks {
                        let m = format!("{desc}: excluded string not found in input");
                        self.at_directive(&mut out, d, Kind::Remark, &m, 0);
                        self.at_input(&mut out, ev.start, Kind::Note, "scanning from here", None);
                    }
                    let ty = MatchType::NoneAndExcluded;
                    diags.push(diag(ty, ev.start..ev.end, None));
                    self.substitutions(&mut out, &mut diags, ev, ty, verbose_remarks, &label);
                }
                EventKind::NotFound => {
                    let expected = d.pat.kind != CheckKind::Not;
                    let mut m = format!(
                        "{desc}: {} string not found in input",
                        if expected { "expected" } else { "excluded" }
                    );
                    if d.pat.count > 1 {
                        let _ = write!(m, " ({} out of {})", ev.nth, d.pat.count);
                    }
                    self.at_directive(&mut out, d, Kind::Error, &m, 0);
                    self.at_input(&mut out, ev.start, Kind::Note, "scanning from here", None);
                    let ty = MatchType::NoneButExpected;
                    diags.push(diag(ty, ev.start..ev.end, None));
                    self.substitutions(&mut out, &mut diags, ev, ty, true, &label);
                    self.fuzzy(&mut out, &mut diags, d, key, &label, ev.start..ev.end);
                }
                EventKind::Excluded => {
                    let m = format!("{desc}: excluded string found in input");
                    self.at_directive(&mut out, d, Kind::Error, &m, 0);
                    self.found_here(&mut out, ev);
                    let ty = MatchType::FoundButExcluded;
                    diags.push(diag(ty, ev.start..ev.end, None));
                    self.substitutions(&mut out, &mut diags, ev, ty, true, &label);
                }
                EventKind::WrongLine { prev_end, message } => {
                    self.at_directive(&mut out, d, Kind::Error, message, 0);
                    self.at_input(
                        &mut out,
                        ev.start,
                        Kind::Note,
                        "'next' match was here",
                        None,
                    );
                    self.at_input(
                        &mut out,
                        *prev_end,
                        Kind::Note,
                        "previous match ended here",
                        None,
                    );
                    if message.ends_with("is not on the line after the previous match") {
                        let skipped = &self.input.text.as_bytes()[*prev_end..ev.start];
                        if let Some(p) = first_line_after(skipped) {
                            self.at_input(
                                &mut out,
                                prev_end + p,
                                Kind::Note,
                                "non-matching line after previous match is here",
                                None,
                            );
                        }
                    }
                    let ty = MatchType::FoundButWrongLine;
                    diags.push(diag(ty, ev.start..ev.end, None));
                    if self.verbose > 0 {
                        self.substitutions(&mut out, &mut diags, ev, ty, false, &label);
                    }
                }
                EventKind::Error(_) => {
                    // LLVM reports every error of one search together:
                    // each at its place, then one dump range, its notes,
                    // and the fuzzy match.
                    let mut j = i;
                    while j < events.len()
                        && std::ptr::eq(events[j].dir, d)
                        && matches!(events[j].kind, EventKind::Error(_))
                    {
                        j += 1;
                    }
                    let group = &events[i..j];
                    for e in group {
                        if let EventKind::Error(m) = &e.kind {
                            let off = undefined_at(&d.pat.text, m)
                                .or_else(|| overflow_at(&d.pat.text, m))
                                .unwrap_or(0);
                            self.at_directive(&mut out, d, Kind::Error, m, off);
                        }
                    }
                    let ty = MatchType::NoneForInvalidPattern;
                    diags.push(diag(ty, ev.start..ev.end, None));
                    for e in group {
                        if let EventKind::Error(m) = &e.kind {
                            diags.push(diag(ty, ev.start..ev.start, Some(m.clone())));
                        }
                    }
                    self.substitutions(&mut out, &mut diags, ev, ty, true, &label);
                    if d.pat.kind != CheckKind::Not {
                        self.fuzzy(&mut out, &mut diags, d, key, &label, ev.start..ev.end);
                    }
                    i = j;
                    continue;
                }
            }
            i += 1;
        }
        let dump = with_dump.then(|| self.dump(&diags));
        Rendered {
            messages: out,
            dump,
        }
    }

    /// LLVM's `with "V" equal to "..."` notes, at the start of the match
    /// or search, then its `captured var "V"` notes, at each variable's
    /// capture in a match: printed (when `print`) and in the dump.
    fn substitutions(
        &self,
        out: &mut String,
        diags: &mut Vec<DumpDiag>,
        ev: &Event<'_>,
        ty: MatchType,
        print: bool,
        label: &str,
    ) {
        let substituted = ev.subst.iter().map(|(from, value)| {
            let note = format!("with \"{}\" equal to \"{}\"", escaped(from), escaped(value));
            (note, ev.start..ev.start, None)
        });
        // A variable defined twice in one pattern is noted once, at its
        // last definition (LLVM keeps its definitions in a map by name).
        let mut seen = std::collections::HashSet::new();
        let mut last: Vec<bool> = ev
            .captures
            .iter()
            .rev()
            .map(|(name, _)| seen.insert(name))
            .collect();
        last.reverse();
        let captured = ev
            .captures
            .iter()
            .zip(last)
            .filter(|&(_, is_last)| is_last)
            .map(|((name, range), _)| {
                let note = format!("captured var \"{name}\"");
                (note, range.clone(), Some(range.clone()))
            });
        for (note, range, shown) in substituted.chain(captured) {
            if print {
                self.at_input(out, range.start, Kind::Note, &note, shown);
            }
            diags.push(DumpDiag {
                key: key_of(ev.dir),
                label: label.to_string(),
                ty,
                range,
                note: Some(note),
            });
        }
    }

    /// The dump's label for a directive: `next:2`, `count:3`, `not:imp1`.
    fn label_of(&self, d: &Directive) -> String {
        let ty = match d.pat.kind {
            CheckKind::Plain if d.pat.count > 1 => "count",
            CheckKind::Plain => "check",
            CheckKind::Next => "next",
            CheckKind::Same => "same",
            CheckKind::Not => "not",
            CheckKind::Dag => "dag",
            CheckKind::Label => "label",
            CheckKind::Empty => "empty",
            CheckKind::Eof => "eof",
        };
        match d.source {
            Source::CheckFile => format!("{ty}:{}", d.line),
            Source::ImplicitNot(i) => format!("{ty}:imp{}", i + 1),
        }
    }

    /// LLVM's "possible intended match here": the position in `region`
    /// (at most 4 KiB of it) whose text is closest to the pattern, weighed
    /// by the lines skipped to reach it.
    fn fuzzy(
        &self,
        out: &mut String,
        diags: &mut Vec<DumpDiag>,
        d: &Directive,
        key: (usize, usize),
        label: &str,
        region: Range<usize>,
    ) {
        let example = self.example_string(d);
        let buf = &self.input.text.as_bytes()[region.clone()];
        if let Some(best) = fuzzy_position(buf, example.as_bytes()) {
            let at = region.start + best;
            self.at_input(out, at, Kind::Note, "possible intended match here", None);
            diags.push(DumpDiag {
                key,
                label: label.to_string(),
                ty: MatchType::Fuzzy,
                range: at..at,
                note: None,
            });
        }
    }

    /// What LLVM compares the input with for the fuzzy match: the fixed
    /// string of a literal pattern, else its regex source (literal text
    /// escaped, `{{...}}` as written, a definition as a group, uses left
    /// out).
    fn example_string(&self, d: &Directive) -> String {
        let text = d.pat.text.as_str();
        let full = self.match_full_lines && d.pat.kind != CheckKind::Not;
        let is_literal_text = text.len() < 2 || (!text.contains("{{") && !text.contains("[["));
        if d.literal || (!full && is_literal_text) {
            return text.to_string();
        }
        let mut re = String::new();
        if full {
            re.push('^');
            if !self.strict_whitespace {
                re.push_str(" *");
            }
        }
        regex_source(text, &mut re);
        if full {
            if !self.strict_whitespace {
                re.push_str(" *");
            }
            re.push('$');
        }
        re
    }

    /// The annotated input dump (LLVM's `DumpAnnotatedInput`).
    fn dump(&self, diags: &[DumpDiag]) -> String {
        let lines = Lines::new(self.input.text);
        let mut total: std::collections::HashMap<(usize, usize), usize> =
            std::collections::HashMap::new();
        for d in diags {
            *total.entry(d.key).or_default() += 1;
        }
        let mut seen: std::collections::HashMap<(usize, usize), usize> =
            std::collections::HashMap::new();
        let mut anns: Vec<Annotation> = Vec::new();
        let mut label_w = 0;
        for (index, d) in diags.iter().enumerate() {
            let mut label = d.label.clone();
            if total[&d.key] > 1 {
                let n = seen.entry(d.key).or_default();
                let _ = write!(label, "'{n}");
                *n += 1;
            }
            label_w = label_w.max(label.len());
            let (lead, default_note, filters_as_error) = d.ty.marker();
            let (sl, sc) = lines.line_col(d.range.start);
            let (el, ec) = lines.line_col(d.range.end);
            let mut note = d.note.clone().unwrap_or_else(|| default_note.to_string());
            let lead = if d.note.is_some() && sl == el && sc == ec {
                ' '
            } else {
                lead
            };
            if d.note.is_some() && note.is_empty() {
                note = default_note.to_string();
            }
            let first = Annotation {
                index,
                label: label.clone(),
                first_line: true,
                line: sl,
                start_col: sc,
                end_col: if sl == el { ec.max(sc + 1) } else { usize::MAX },
                lead,
                note,
                filters_as_error,
                color: d.ty.color(),
                found_and_expected: d.ty == MatchType::FoundAndExpected,
            };
            anns.push(first);
            if sl != el {
                for l in sl + 1..=el {
                    if ec == 1 && l == el {
                        break;
                    }
                    anns.push(Annotation {
                        index,
                        label: label.clone(),
                        first_line: false,
                        line: l,
                        start_col: 1,
                        end_col: if l == el { ec } else { usize::MAX },
                        lead: '~',
                        note: String::new(),
                        filters_as_error,
                        color: d.ty.color(),
                        found_and_expected: d.ty == MatchType::FoundAndExpected,
                    });
                }
            }
        }
        anns.sort_by_key(|a| (a.line, a.index));
        self.render_dump(&anns, label_w)
    }

    fn render_dump(&self, anns: &[Annotation], label_w: usize) -> String {
        let text = self.input.text.as_bytes();
        let mut out = format!(
            "\nInput file: {}\nCheck file: {}\n\n-dump-input=help explains the following input dump.\n\nInput was:\n<<<<<<\n",
            self.input.name, self.check.name
        );
        if self.color {
            // What LLVM's colours leave after the `<<<<<<` line, once.
            out.push_str("\x1b[1m\x1b[0m");
        }
        let mut line_count = memchr::memchr_iter(b'\n', text).count();
        if text.last().is_some_and(|&b| b != b'\n') {
            line_count += 1;
        }
        let line_no_w = line_count.max(1).to_string().len();
        let label_w = label_w.max(line_no_w) + 3;
        let color = self.color;
        let mut prev_in_filter = 0usize;
        let mut next_in_filter = 0usize;
        let mut elided = String::new();
        let mut pos = 0usize;
        let mut a = 0usize;
        let mut line = 1usize;
        while pos < text.len() || a < anns.len() {
            if next_in_filter < line {
                next_in_filter = self.next_in_filter(line, &anns[a..]);
            }
            if next_in_filter == line {
                prev_in_filter = line;
            }
            let ctx = self.dump_context;
            let elide = (prev_in_filter == 0 || prev_in_filter + ctx < line)
                && (next_in_filter == usize::MAX || line + ctx < next_in_filter);
            if !elide {
                flush_elided(&mut out, &mut elided, label_w, color);
            }
            let o = if elide { &mut elided } else { &mut out };
            if color {
                let _ = write!(o, "\x1b[0;1;30m{line:>label_w$}: \x1b[0m\x1b[1m");
            } else {
                let _ = write!(o, "{line:>label_w$}: ");
            }
            let start = pos;
            let end = memchr::memchr(b'\n', &text[pos..]).map_or(text.len(), |p| pos + p + 1);
            let body = &text[start..end];
            let (body, newline) = match body.split_last() {
                Some((b'\n', b)) => (b, true),
                _ => (body, false),
            };
            if color && self.verbose > 0 {
                // LLVM's highlight (`-v` with colours): the text no
                // expected pattern matched, on a cyan background.
                let matched: Vec<(usize, usize)> = anns[a..]
                    .iter()
                    .take_while(|ann| ann.line == line)
                    .filter(|ann| ann.found_and_expected)
                    .map(|ann| (ann.start_col, ann.end_col.max(ann.start_col + 1)))
                    .collect();
                let in_match = |col: usize| matched.iter().any(|&(s, e)| s <= col && col < e);
                o.push_str(UNMATCHED);
                let mut was_in_match = false;
                let mut run = 0;
                let columns = body.len() + usize::from(newline);
                for col in 1..=columns {
                    let now = in_match(col);
                    if now != was_in_match {
                        o.push_str(&String::from_utf8_lossy(&body[run..col - 1]));
                        run = col - 1;
                        o.push_str(if now { "\x1b[0m" } else { UNMATCHED });
                        was_in_match = now;
                    }
                }
                o.push_str(&String::from_utf8_lossy(&body[run..]));
            } else {
                o.push_str(&String::from_utf8_lossy(body));
            }
            if newline {
                o.push(' ');
            }
            if color {
                o.push_str("\x1b[0m");
            }
            o.push('\n');
            pos = end;
            let width = end - start;
            while a < anns.len() && anns[a].line == line {
                let ann = &anns[a];
                if color {
                    o.push_str(ann.color);
                }
                let _ = write!(o, "{:<label_w$}  ", ann.label);
                let mut col = 1;
                while col < ann.start_col {
                    o.push(' ');
                    col += 1;
                }
                o.push(ann.lead);
                col += 1;
                while col < ann.end_col && col <= width {
                    o.push('~');
                    col += 1;
                }
                if !ann.note.is_empty() {
                    while col <= width {
                        o.push(' ');
                        col += 1;
                    }
                    o.push(' ');
                    o.push_str(&ann.note);
                }
                o.push('\n');
                if color {
                    o.push_str("\x1b[0m");
                }
                a += 1;
            }
            line += 1;
        }
        flush_elided(&mut out, &mut elided, label_w, color);
        out.push_str(">>>>>>\n");
        out
    }

    fn next_in_filter(&self, line: usize, anns: &[Annotation]) -> usize {
        use crate::DumpInputFilter as F;
        if self.dump_filter == F::All {
            return line;
        }
        for a in anns {
            let keep = match self.dump_filter {
                F::All => true,
                F::AnnotationFull => true,
                F::Annotation => a.first_line,
                F::Error => a.first_line && a.filters_as_error,
            };
            if keep {
                return a.line;
            }
        }
        usize::MAX
    }
}

/// One line of annotation under an input line.
struct Annotation {
    index: usize,
    label: String,
    first_line: bool,
    line: usize,
    start_col: usize,
    end_col: usize,
    lead: char,
    note: String,
    filters_as_error: bool,
    color: &'static str,
    /// LLVM's `FoundAndExpectedMatch`: the match (or a note on it) of an
    /// expected pattern, left unhighlighted under `-v`.
    found_and_expected: bool,
}

/// LLVM's vertical ellipsis, or the elided lines themselves when they are
/// no more than three.
fn flush_elided(out: &mut String, elided: &mut String, label_w: usize, color: bool) {
    if elided.is_empty() {
        return;
    }
    if elided.matches('\n').count() > 3 {
        for _ in 0..3 {
            if color {
                let _ = writeln!(out, "\x1b[0;1;30m{:>label_w$}\x1b[0m", ".");
            } else {
                let _ = writeln!(out, "{:>label_w$}", ".");
            }
        }
    } else {
        out.push_str(elided);
    }
    elided.clear();
}

/// An error at `pos` of `buf`, as LLVM prints it.
pub(crate) fn located(color: bool, buf: Buffer<'_>, pos: usize, message: &str) -> String {
    let mut out = String::new();
    print(&mut out, color, buf, pos, Kind::Error, message, &[]);
    out
}

/// A report without a location.
pub(crate) fn unlocated(out: &mut String, color: bool, message: &str) {
    if color {
        let _ = writeln!(out, "\x1b[0;1;31merror: \x1b[0m\x1b[1m{message}\x1b[0m");
    } else {
        let _ = writeln!(out, "error: {message}");
    }
}

/// LLVM's `raw_ostream::write_escaped`: `\\`, `\t`, `\n`, `\"`, and
/// other unprintable bytes in octal.
fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for &b in text.as_bytes() {
        match b {
            b'\\' => out.push_str("\\\\"),
            b'\t' => out.push_str("\\t"),
            b'\n' => out.push_str("\\n"),
            b'"' => out.push_str("\\\""),
            0x20..=0x7e => out.push(b as char),
            _ => {
                let _ = write!(out, "\\{:03o}", b);
            }
        }
    }
    out
}

/// Identifies a directive across the copies of the implicit CHECK-NOTs.
fn key_of(d: &Directive) -> (usize, usize) {
    match d.source {
        Source::CheckFile => (0, d.pattern_offset),
        Source::ImplicitNot(i) => (1, i),
    }
}

/// Where, after a match ending at the start of `skipped`, the first line
/// after it starts (LLVM's `CountNumNewlinesBetween`: `\r\n` and `\n\r`
/// are one line break).
fn first_line_after(skipped: &[u8]) -> Option<usize> {
    let p = skipped.iter().position(|&b| b == b'\n' || b == b'\r')?;
    let pair = skipped
        .get(p + 1)
        .is_some_and(|&c| (c == b'\n' || c == b'\r') && c != skipped[p]);
    Some(p + 1 + usize::from(pair))
}

/// Where `undefined variable: NAME` names its variable in the pattern
/// text: the first use of NAME as a whole word inside a `[[...]]` block.
fn undefined_at(pattern: &str, message: &str) -> Option<usize> {
    let name = message.strip_prefix("undefined variable: ")?;
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c == b'@';
    let b = pattern.as_bytes();
    pattern.match_indices(name).map(|(p, _)| p).find(|&p| {
        let before_ok = p == 0 || !word(b[p - 1]) || (name.starts_with('$') && b[p - 1] != b'$');
        let after_ok = b.get(p + name.len()).is_none_or(|&c| !word(c));
        let open = pattern[..p].rfind("[[");
        let close = pattern[..p].rfind("]]");
        before_ok && after_ok && open.is_some() && open > close
    })
}

/// Where LLVM points an overflow in substituting: the expression of the
/// first numeric block (`[[#...]]`, or a legacy `[[@LINE...]]`).
fn overflow_at(pattern: &str, message: &str) -> Option<usize> {
    if !message.contains("overflow error") {
        return None;
    }
    let p = pattern.find("[[#").map(|p| p + 3);
    let q = pattern.find("[[@").map(|p| p + 2);
    p.into_iter().chain(q).min()
}

/// LLVM's regex source of a pattern with blocks (`Pattern::RegExStr`).
fn regex_source(text: &str, re: &mut String) {
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(inner) = rest.strip_prefix("{{") {
            let Some(end) = inner.find("}}") else {
                re.push_str(&llvm_regex_escape(rest));
                return;
            };
            let block = &inner[..end];
            if block.contains('|') {
                let _ = write!(re, "({block})");
            } else {
                re.push_str(block);
            }
            rest = &inner[end + 2..];
            continue;
        }
        if let Some(inner) = rest.strip_prefix("[[") {
            let Some(end) = inner.find("]]") else {
                re.push_str(&llvm_regex_escape(rest));
                return;
            };
            let block = &inner[..end];
            if let Some(num) = block.strip_prefix('#') {
                if num.contains(':') {
                    re.push_str("([0-9]+)");
                }
            } else if let Some((_, def)) = block.split_once(':') {
                let _ = write!(re, "({def})");
            }
            rest = &inner[end + 2..];
            continue;
        }
        let next = [rest.find("{{"), rest.find("[[")]
            .into_iter()
            .flatten()
            .min()
            .unwrap_or(rest.len());
        let next = if next == 0 { 1 } else { next };
        re.push_str(&llvm_regex_escape(&rest[..next]));
        rest = &rest[next..];
    }
}

/// The best fuzzy position in `buf` (LLVM's `printFuzzyMatch`), if LLVM
/// would print it: not 0, and closer than [`FUZZY_QUALITY`].
fn fuzzy_position(buf: &[u8], example: &[u8]) -> Option<usize> {
    let mut lines = 0usize;
    // Quality is distance + lines / 100; kept in hundredths to stay exact.
    let mut best: Option<(usize, usize)> = None;
    let cap = FUZZY_QUALITY + 1;
    let bits = BitDistance::new(example);
    for i in 0..buf.len().min(FUZZY_WINDOW) {
        if buf[i] == b'\n' {
            lines += 1;
        }
        if buf[i] == b' ' || buf[i] == b'\t' {
            continue;
        }
        let window = &buf[i..(i + example.len()).min(buf.len())];
        let window = match memchr::memchr(b'\n', window) {
            Some(p) => &window[..p],
            None => window,
        };
        // Only distances below the best so far (and below LLVM's bound)
        // matter; a bounded computation stops above them.
        let limit = match best {
            Some((q, _)) => (q / 100 + 1).min(cap),
            None => usize::MAX,
        };
        let dist = match &bits {
            Some(bits) => bits.distance(window, limit),
            None => edit_distance(window, example, limit),
        };
        let quality = dist.saturating_mul(100).saturating_add(lines);
        if best.is_none_or(|(q, _)| quality < q) {
            best = Some((quality, i));
        }
    }
    best.filter(|&(q, pos)| pos != 0 && q < FUZZY_QUALITY * 100)
        .map(|(_, p)| p)
}

/// The Levenshtein distance to a fixed string of 1 to 128 bytes, computed
/// a column at a time in the bits of one word (Myers' bit-parallel
/// algorithm in Hyyro's form, with the first row's `+1` per column of a
/// whole-string distance): a few word operations per byte of the other
/// string, where the table costs one cell per pair of bytes.
struct BitDistance {
    /// Per byte value, the positions of the fixed string holding it.
    peq: Box<[u128; 256]>,
    len: usize,
}

impl BitDistance {
    fn new(b: &[u8]) -> Option<BitDistance> {
        if b.is_empty() || b.len() > 128 {
            return None;
        }
        let mut peq = Box::new([0u128; 256]);
        for (i, &c) in b.iter().enumerate() {
            peq[usize::from(c)] |= 1u128 << i;
        }
        Some(BitDistance { peq, len: b.len() })
    }

    /// As [`edit_distance`]`(a, b, limit)`: the distance, or `limit` when
    /// it is at least `limit`.
    fn distance(&self, a: &[u8], limit: usize) -> usize {
        let m = self.len;
        if a.len().abs_diff(m) >= limit {
            return limit;
        }
        let last = 1u128 << (m - 1);
        let (mut pv, mut mv) = (!0u128, 0u128);
        // The distance from all of the fixed string to `a[..j]`.
        let mut score = m;
        for (j, &c) in a.iter().enumerate() {
            let eq = self.peq[usize::from(c)];
            let xv = eq | mv;
            let xh = ((eq & pv).wrapping_add(pv) ^ pv) | eq;
            let ph = mv | !(xh | pv);
            let mh = pv & xh;
            if ph & last != 0 {
                score += 1;
            } else if mh & last != 0 {
                score -= 1;
            }
            let ph = (ph << 1) | 1;
            let mh = mh << 1;
            pv = mh | !(xv | ph);
            mv = ph & xv;
            // Each byte left lowers the distance by one at most.
            if score.saturating_sub(a.len() - j - 1) >= limit {
                return limit;
            }
        }
        score.min(limit)
    }
}

/// Levenshtein distance of `a` and `b` (LLVM's `edit_distance`), or
/// `limit` when it is at least `limit`. Only the band of cells within
/// `limit` of the diagonal is computed (a path leaving it costs more).
fn edit_distance(a: &[u8], b: &[u8], limit: usize) -> usize {
    if a.len().abs_diff(b.len()) >= limit {
        return limit;
    }
    let n = b.len();
    let mut row: Vec<usize> = (0..=n).map(|j| j.min(limit)).collect();
    for i in 1..=a.len() {
        let lo = i.saturating_sub(limit).max(1);
        let hi = i.saturating_add(limit).min(n);
        let mut diag = row[lo - 1];
        row[lo - 1] = if lo == 1 { i.min(limit) } else { limit };
        let mut row_min = row[lo - 1];
        for j in lo..=hi {
            let up = row[j];
            let v = (diag + usize::from(a[i - 1] != b[j - 1]))
                .min(up + 1)
                .min(row[j - 1] + 1)
                .min(limit);
            diag = up;
            row[j] = v;
            row_min = row_min.min(v);
        }
        if hi < n {
            row[hi + 1] = limit;
        }
        if row_min >= limit {
            return limit;
        }
    }
    row[n]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `-color -dump-input=help` as FileCheck-19 prints it: the labels of
    /// the annotation list in bold (not the options above it), the colour
    /// names in their colours, and the text otherwise unchanged.
    #[test]
    fn dump_help_in_colour_is_llvms() {
        assert_eq!(dump_help(false), DUMP_HELP);
        let coloured = dump_help(true);
        assert!(coloured.contains("\n  - \x1b[1mL:\x1b[0m     labels line number L"));
        assert!(coloured.contains("\n  - \x1b[1mT:L'N\x1b[0m  labels the Nth"));
        assert!(coloured.contains("\n  - \x1b[1m...\x1b[0m    indicates elided"));
        assert!(coloured.contains("\n  - -dump-input=<value> enables"));
        assert!(coloured.ends_with(
            "  - colors \x1b[0;1;32msuccess\x1b[0m, \x1b[0;1;31merror\x1b[0m, \
             \x1b[0;1;35mfuzzy match\x1b[0m, \x1b[0;1;36mdiscarded match\x1b[0m, \
             \x1b[0;1;46munmatched input\x1b[0m\n"
        ));
        let plain = coloured.replace("\x1b[1m", "").replace("\x1b[0m", "");
        let plain = [
            "\x1b[0;1;32m",
            "\x1b[0;1;31m",
            "\x1b[0;1;35m",
            "\x1b[0;1;36m",
            "\x1b[0;1;46m",
        ]
        .iter()
        .fold(plain, |t, code| t.replace(code, ""));
        assert_eq!(plain, DUMP_HELP);
    }

    #[test]
    fn quoted_lines_expand_tabs_and_mark_ranges() {
        let mut out = String::new();
        let buf = Buffer {
            name: "f",
            text: "a\tbc\nxyz\n",
        };
        print(
            &mut out,
            false,
            buf,
            2,
            Kind::Note,
            "here",
            std::slice::from_ref(&(2..4)),
        );
        assert_eq!(out, "f:1:3: note: here\na       bc\n        ^~\n");
        let mut out = String::new();
        print(&mut out, false, buf, 9, Kind::Error, "end", &[]);
        assert_eq!(out, "f:3:1: error: end\n\n^\n");
    }

    #[test]
    fn fuzzy_prefers_close_text_and_skips_position_zero() {
        assert_eq!(fuzzy_position(b"\nfob\n", b"foo"), Some(1));
        assert_eq!(fuzzy_position(b"foo\n", b"foo"), None);
        assert_eq!(fuzzy_position(b"\nzzzzzz\n", &[b'a'; 60]), None);
    }

    #[test]
    fn bounded_edit_distance_is_exact_below_its_limit() {
        assert_eq!(edit_distance(b"kitten", b"sitting", usize::MAX), 3);
        assert_eq!(edit_distance(b"kitten", b"sitting", 2), 2);
        assert_eq!(edit_distance(b"", b"abc", 10), 3);
    }

    #[test]
    fn bit_parallel_distance_is_the_tables() {
        // Pseudo-random strings over a small alphabet (many near matches),
        // of lengths around the word's 128 bits.
        let mut seed = 33u64;
        let mut next = move |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        for _ in 0..2000 {
            let m = 1 + next(128) as usize;
            let b: Vec<u8> = (0..m).map(|_| b"ab c"[next(4) as usize]).collect();
            let n = next(140) as usize;
            let a: Vec<u8> = (0..n).map(|_| b"ab c"[next(4) as usize]).collect();
            let bits = BitDistance::new(&b).unwrap();
            for limit in [1, 2, 5, 51, usize::MAX] {
                assert_eq!(
                    bits.distance(&a, limit),
                    edit_distance(&a, &b, limit),
                    "{a:?} {b:?} {limit}"
                );
            }
        }
        assert!(BitDistance::new(b"").is_none());
        assert!(BitDistance::new(&[b'a'; 129]).is_none());
        let bits = BitDistance::new(b"sitting").unwrap();
        assert_eq!(bits.distance(b"kitten", usize::MAX), 3);
    }

    #[test]
    fn regex_source_as_llvm_builds_it() {
        let mut re = String::new();
        regex_source("a.b {{x|y}} [[V:[0-9]+]] [[V]] [[#N:]]", &mut re);
        assert_eq!(re, "a\\.b (x|y) ([0-9]+)  ([0-9]+)");
    }

    #[test]
    fn undefined_variable_is_located_at_its_use() {
        assert_eq!(
            undefined_at("foo [[X]] X", "undefined variable: X"),
            Some(6)
        );
        assert_eq!(undefined_at("[[#N+1]]", "undefined variable: N"), Some(3));
    }
}
