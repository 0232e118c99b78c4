//! An LLVM-FileCheck-compatible checker, as a library (the engine behind
//! `pfir filecheck` and the `FileCheck` of `pfir test` RUN lines).
//!
//! [`check`] matches an input text against the directives of a check file
//! (`CHECK:`, `CHECK-NEXT:`, `CHECK-SAME:`, `CHECK-NOT:`, `CHECK-DAG:`,
//! `CHECK-LABEL:`, `CHECK-EMPTY:`, `CHECK-COUNT-n:`, with `{{regex}}`,
//! `[[VAR:regex]]` and `[[VAR]]`) and, on failure, returns a
//! [`FileCheckFailure`] whose [`report`](FileCheckFailure::report) is a
//! rendered, deterministic diagnostic plus an annotated dump of the input.
//!
//! Submodules: `text` (whitespace canonicalization), `directives` (parsing
//! the check file), `pattern` (literal / regex / variable patterns),
//! `matcher` (the matching algorithm), `report` (diagnostics and the dump).
//!
//! **Boundary:** this crate knows nothing of pfir's compiler. It checks any
//! text against any check file, depends on no other crate of the workspace
//! (and never on the `pfir` package), and takes no command-line types:
//! [`args`] parses LLVM FileCheck's own command line into
//! [`FileCheckOptions`], for `pfir filecheck` and the language server.

pub mod args;
mod directives;
mod llvm;
mod matcher;
mod numeric;
mod pattern;
mod re;
mod report;
mod text;

use std::fmt;
use std::fmt::Write as _;

/// The directive suffixes FileCheck reads after `PREFIX-` (`CHECK-NEXT:`,
/// ...), besides `COUNT-<n>` ([`is_directive_suffix`]): the list the
/// check-file parser matches, for the tools that recognise directives
/// without parsing a check file (the editor, check generation).
pub const DIRECTIVE_SUFFIXES: [&str; 6] = {
    let mut words = [""; 6];
    let mut i = 0;
    while i < words.len() {
        words[i] = directives::SUFFIXES[i].0;
        i += 1;
    }
    words
};

/// Whether `prefix` is a check or comment prefix FileCheck accepts: not
/// empty, of ASCII letters, digits, `-` and `_` only (in any order).
pub fn is_valid_prefix(prefix: &str) -> bool {
    !prefix.is_empty()
        && prefix
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// Whether `word`, what follows `PREFIX-` up to the `:`, names a
/// directive: one of [`DIRECTIVE_SUFFIXES`], or `COUNT-` and a number.
pub fn is_directive_suffix(word: &str) -> bool {
    DIRECTIVE_SUFFIXES.contains(&word)
        || word
            .strip_prefix("COUNT-")
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// When to append the annotated input dump to the report. The variants are
/// in LLVM's precedence order: when several are given, the lowest wins.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum DumpInput {
    /// Print help about the dump format.
    Help,
    /// Always (on success the dump is returned in [`FileCheckOutcome`]).
    Always,
    /// Only when the check fails.
    #[default]
    Fail,
    /// Never.
    Never,
}

/// Which input lines the dump shows (`--dump-input-filter`), in LLVM's
/// precedence order: when several are given, the lowest wins.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum DumpInputFilter {
    /// Every input line.
    All,
    /// Lines carrying any annotation (including continuation lines).
    AnnotationFull,
    /// Lines where an annotation starts.
    Annotation,
    /// Lines where an error annotation starts.
    Error,
}

/// How failures are reported.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum ReportStyle {
    /// LLVM FileCheck's own text: `FILE:LINE:COL: error: ...`, the line and
    /// a caret, its notes, and its input dump (labels like `next:2'0`),
    /// located in the whitespace-collapsed text as LLVM locates them.
    #[default]
    Llvm,
    /// codespan-style snippets in the original text (the rest of pfir's
    /// diagnostics), with a dump labelled `check:LINE`.
    Codespan,
}

/// The options of a FileCheck run (the flags of `pfir filecheck`).
#[derive(Debug, Clone)]
pub struct FileCheckOptions {
    /// Check prefixes; empty means `CHECK`.
    pub check_prefixes: Vec<String>,
    /// Comment prefixes; `None` means `COM` and `RUN`.
    pub comment_prefixes: Option<Vec<String>>,
    /// Patterns that must not occur anywhere between matches.
    pub implicit_check_not: Vec<String>,
    /// Do not canonicalize horizontal whitespace.
    pub strict_whitespace: bool,
    /// Positive patterns must match whole lines.
    pub match_full_lines: bool,
    /// Match case-insensitively.
    pub ignore_case: bool,
    /// Accept an empty input.
    pub allow_empty: bool,
    /// Do not require every check prefix to be used.
    pub allow_unused_prefixes: bool,
    /// Forget variables not starting with `$` at each CHECK-LABEL.
    pub enable_var_scope: bool,
    /// Variables defined up front, as written after `-D`: `NAME=VALUE`
    /// defines a string variable, `#NAME=EXPR` / `#%FMT,NAME=EXPR` a numeric
    /// one. Validated (and reported) by [`check`].
    pub defines: Vec<String>,
    /// When to dump the input.
    pub dump_input: DumpInput,
    /// Which lines the dump shows; `None`: `Error` with `DumpInput::Fail`,
    /// `All` with `DumpInput::Always`.
    pub dump_input_filter: Option<DumpInputFilter>,
    /// Context lines around the lines the filter selects (LLVM's default: 5).
    pub dump_input_context: usize,
    /// Colour the report with ANSI escapes.
    pub color: bool,
    /// `-v` (1) / `-vv` (2): also annotate successful matches in reports.
    pub verbose: u8,
    /// Let the matches of consecutive CHECK-DAGs overlap (LLVM's deprecated
    /// pre-LLVM-9 behaviour).
    pub allow_deprecated_dag_overlap: bool,
    /// The layout of reports.
    pub report_style: ReportStyle,
    /// Reject a suffix within one edit of a directive's (`CHECK-NXT:`,
    /// `CHECK-next:`) as a misspelled directive; LLVM reads it as text.
    pub reject_misspelled_suffixes: bool,
    /// Fill [`FileCheckOutcome::directives`] (editors want it; a
    /// command line that only prints the report does not).
    pub directive_results: bool,
}

impl Default for FileCheckOptions {
    fn default() -> Self {
        FileCheckOptions {
            check_prefixes: Vec::new(),
            comment_prefixes: None,
            implicit_check_not: Vec::new(),
            strict_whitespace: false,
            match_full_lines: false,
            ignore_case: false,
            allow_empty: false,
            allow_unused_prefixes: false,
            enable_var_scope: false,
            defines: Vec::new(),
            dump_input: DumpInput::Fail,
            dump_input_filter: None,
            dump_input_context: 5,
            color: false,
            verbose: 0,
            allow_deprecated_dag_overlap: false,
            report_style: ReportStyle::Llvm,
            reject_misspelled_suffixes: false,
            directive_results: true,
        }
    }
}

/// Why a check failed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// The input did not satisfy the directives.
    Mismatch,
    /// The check file is malformed (or has no directives).
    CheckFile,
    /// The input is empty and `allow_empty` is off.
    EmptyInput,
    /// The options are invalid (e.g. a malformed prefix).
    Usage,
}

/// One error, located in the check file (or the input).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileCheckError {
    /// File name; empty when the error has no location.
    pub file: String,
    /// 1-based line (0 when there is no location).
    pub line: usize,
    /// 1-based column in characters (0 when there is no location).
    pub col: usize,
    pub message: String,
}

impl fmt::Display for FileCheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.file.is_empty() {
            write!(f, "error: {}", self.message)
        } else {
            write!(
                f,
                "{}:{}:{}: error: {}",
                self.file, self.line, self.col, self.message
            )
        }
    }
}

/// A failed check: the errors and the rendered report.
#[derive(Debug, Clone)]
pub struct FileCheckFailure {
    pub kind: FailureKind,
    pub errors: Vec<FileCheckError>,
    report: String,
}

impl FileCheckFailure {
    /// The rendered report: diagnostics, then (per `dump_input`) the input dump.
    pub fn report(&self) -> &str {
        &self.report
    }
}

impl fmt::Display for FileCheckFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.report)
    }
}

impl std::error::Error for FileCheckFailure {}

/// The result of [`check_detailed`].
#[derive(Debug, Clone)]
pub struct FileCheckOutcome {
    pub result: Result<(), FileCheckFailure>,
    /// With `DumpInput::Always`, the annotated input dump of a passing run.
    pub dump: Option<String>,
    /// With `verbose` (`-v`), a note for every successful match.
    pub remarks: String,
    /// What happened to each directive that was tried, in matching order
    /// (empty when the check file or the options were rejected): where it
    /// matched in the input, or why not. Editors show these on the check
    /// lines.
    pub directives: Vec<DirectiveResult>,
}

/// How one directive fared.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DirectiveStatus {
    /// Matched `input`.
    Matched,
    /// Not found in the scanned region `input`.
    NotFound,
    /// A CHECK-NOT pattern found at `input`.
    Excluded,
    /// A NEXT / SAME / EMPTY match at `input` on the wrong line.
    WrongLine,
    /// The search could not be run (such as an undefined variable).
    Error,
}

/// One directive's result (see [`FileCheckOutcome::directives`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirectiveResult {
    /// 1-based line of the directive in the check file; 0 for an
    /// `--implicit-check-not` pattern.
    pub check_line: usize,
    /// The directive as written (`CHECK-NEXT`, `CHECK-COUNT-3`).
    pub name: String,
    /// For CHECK-COUNT, the 1-based repetition.
    pub nth: usize,
    pub status: DirectiveStatus,
    /// Byte range in the original input: the match, or the scanned region.
    pub input: std::ops::Range<usize>,
    /// For `NotFound`: the "possible intended match" of the report.
    pub candidate: Option<std::ops::Range<usize>>,
    /// The error message of the report; empty for a match.
    pub message: String,
}

/// Checks `input` against the directives in `check_text`. The names are
/// used in reports (e.g. the check file's path and `<stdin>`).
pub fn check(
    check_text: &str,
    check_name: &str,
    input: &str,
    input_name: &str,
    opts: &FileCheckOptions,
) -> Result<(), FileCheckFailure> {
    check_detailed(check_text, check_name, input, input_name, opts).result
}

/// Like [`check`], also returning the input dump of a passing run when
/// `opts.dump_input` is `Always`.
pub fn check_detailed(
    check_text: &str,
    check_name: &str,
    input: &str,
    input_name: &str,
    opts: &FileCheckOptions,
) -> FileCheckOutcome {
    re::clear_cache();
    let strict = opts.strict_whitespace;
    let check_canon = text::Canon::new(check_text, strict);
    let input_canon = text::Canon::new(input, strict);
    let ctx = report::Context {
        check_name,
        check_text,
        check_canon: &check_canon,
        input_name,
        input_text: input,
        input_canon: &input_canon,
        implicit_not: &opts.implicit_check_not,
        dump_filter: opts.dump_input_filter.unwrap_or(match opts.dump_input {
            DumpInput::Always => DumpInputFilter::All,
            _ => DumpInputFilter::Error,
        }),
        dump_context: opts.dump_input_context,
        color: opts.color,
        llvm: opts.report_style == ReportStyle::Llvm,
    };
    let fail = |result| FileCheckOutcome {
        result: Err(result),
        dump: None,
        remarks: String::new(),
        directives: Vec::new(),
    };

    let default_prefix = opts.check_prefixes.is_empty();
    let prefixes = if default_prefix {
        vec!["CHECK".to_string()]
    } else {
        opts.check_prefixes.clone()
    };
    let comments = opts
        .comment_prefixes
        .clone()
        .unwrap_or_else(|| vec!["COM".into(), "RUN".into()]);
    // LLVM's order: the defaults of the kind not given first, then the
    // check prefixes, then the comment prefixes; the later duplicate is named.
    let mut seen = std::collections::BTreeSet::new();
    if default_prefix {
        seen.insert("CHECK".to_string());
    }
    let given_comments = opts.comment_prefixes.as_deref().unwrap_or_default();
    if opts.comment_prefixes.is_none() {
        seen.extend(comments.iter().cloned());
    }
    let validated = directives::validate_prefixes(&opts.check_prefixes, "check", &mut seen)
        .and_then(|()| directives::validate_prefixes(given_comments, "comment", &mut seen));
    if let Err(message) = validated {
        return fail(ctx.unlocated(FailureKind::Usage, message));
    }

    let (table, vars) = match global_defines(&opts.defines) {
        Ok(v) => v,
        Err(e) => {
            let mut f = ctx.unlocated(FailureKind::CheckFile, e.codespan(&opts.defines));
            if opts.report_style == ReportStyle::Llvm {
                f.report = e.llvm(&opts.defines, opts.color);
            }
            return fail(f);
        }
    };
    let cfg = directives::ParseConfig {
        prefixes: &prefixes,
        comment_prefixes: &comments,
        implicit_not: &opts.implicit_check_not,
        strict_whitespace: strict,
        match_full_lines: opts.match_full_lines,
        ignore_case: opts.ignore_case,
        allow_unused_prefixes: opts.allow_unused_prefixes,
        default_prefix,
        vars: &table,
        reject_misspelled_suffixes: opts.reject_misspelled_suffixes,
    };
    let llvm_style = opts.report_style == ReportStyle::Llvm;
    let llvm = llvm::Llvm {
        check: llvm::Buffer {
            name: check_name,
            text: &check_canon.text,
        },
        input: llvm::Buffer {
            name: input_name,
            text: &input_canon.text,
        },
        implicit_not: &opts.implicit_check_not,
        match_full_lines: opts.match_full_lines,
        strict_whitespace: strict,
        color: opts.color,
        verbose: opts.verbose,
        dumping: opts.dump_input != DumpInput::Never,
        dump_filter: ctx.dump_filter,
        dump_context: opts.dump_input_context,
    };
    let strings = match directives::parse(&check_canon.text, &cfg) {
        Ok(s) => s,
        Err(e) => {
            let mut f = ctx.parse_error(&e);
            if llvm_style {
                f.report = llvm.parse_error(&e);
            }
            return fail(f);
        }
    };
    if input.is_empty() && !opts.allow_empty {
        let mut f = ctx.unlocated(
            FailureKind::EmptyInput,
            format!("input file '{input_name}' is empty (use --allow-empty to accept it)"),
        );
        if llvm_style {
            f.report = format!("FileCheck error: '{input_name}' is empty.\n");
        }
        return fail(f);
    }

    let mut m = matcher::Matcher::new(&input_canon.text, vars, opts.enable_var_scope);
    m.allow_dag_overlap = opts.allow_deprecated_dag_overlap;
    m.verbose = opts.verbose > 0;
    m.very_verbose = opts.verbose > 1;
    let passed = m.run(&strings);
    let directives = if opts.directive_results {
        ctx.directive_results(&m.events)
    } else {
        Vec::new()
    };
    if llvm_style {
        // LLVM prints while it matches: remarks and errors in one stream,
        // then the dump.
        let always = opts.dump_input == DumpInput::Always;
        let with_dump = always || (!passed && opts.dump_input == DumpInput::Fail);
        let wanted = !passed || with_dump || (opts.verbose > 0 && !llvm.dumping);
        let rendered = wanted.then(|| llvm.render(&m.events, with_dump));
        if passed {
            let (remarks, dump) = rendered.map_or((String::new(), None), |r| (r.messages, r.dump));
            return FileCheckOutcome {
                result: Ok(()),
                dump,
                remarks,
                directives,
            };
        }
        let rendered = rendered.expect("rendered on failure");
        let mut f = ctx.mismatch_errors(&m.events);
        f.report = rendered.messages + rendered.dump.as_deref().unwrap_or("");
        return FileCheckOutcome {
            result: Err(f),
            dump: None,
            remarks: String::new(),
            directives,
        };
    }
    let remarks = if opts.verbose > 0 {
        ctx.remarks(&m.events)
    } else {
        String::new()
    };
    if passed {
        let dump = (opts.dump_input == DumpInput::Always).then(|| ctx.dump(&m.events));
        return FileCheckOutcome {
            result: Ok(()),
            dump,
            remarks,
            directives,
        };
    }
    let with_dump = matches!(opts.dump_input, DumpInput::Fail | DumpInput::Always);
    FileCheckOutcome {
        result: Err(ctx.mismatch(&m.events, with_dump)),
        dump: None,
        remarks,
        directives,
    }
}

/// A `-D` definition LLVM refuses: its message, and where LLVM points in
/// the "Global defines" buffer it makes (the definition's index and an
/// offset in its text there), or nowhere (a plain line).
struct DefineError {
    message: String,
    at: Option<(usize, usize)>,
}

impl DefineError {
    /// pfir's codespan wording: the definition named in the message.
    fn codespan(&self, defines: &[String]) -> String {
        match self.at {
            Some((i, _)) => format!("Global define #{}: {}: {}", i + 1, defines[i], self.message),
            None => self.message.clone(),
        }
    }

    /// LLVM's report: `Global defines:LINE:COL: error: ...` with the
    /// buffer's line and a caret (one line per definition: `Global define
    /// #N: NAME=VALUE`, a numeric one followed by ` (parsed as: [[#...]])`).
    fn llvm(&self, defines: &[String], color: bool) -> String {
        let Some((index, offset)) = self.at else {
            return format!("{}\n", self.message);
        };
        let mut buf = String::new();
        let mut pos = 0;
        for (i, d) in defines.iter().enumerate() {
            let Some(eq) = d.find('=') else { continue };
            let _ = write!(buf, "Global define #{}: ", i + 1);
            if d.starts_with('#') {
                let _ = write!(buf, "{d} (parsed as: [[");
                if i == index {
                    pos = buf.len() + offset;
                }
                let _ = writeln!(buf, "{}:{}]])", &d[..eq], &d[eq + 1..]);
            } else {
                if i == index {
                    pos = buf.len() + offset;
                }
                let _ = writeln!(buf, "{d}");
            }
        }
        let mut out = llvm::located(
            color,
            llvm::Buffer {
                name: "Global defines",
                text: &buf,
            },
            pos,
            &self.message,
        );
        out.push('\n');
        out
    }
}

/// Validates and evaluates the `-D` definitions (`NAME=VALUE`,
/// `#[%FMT,]NAME=EXPR`), in order; errors use LLVM's wording.
fn global_defines(defines: &[String]) -> Result<(numeric::VarTable, pattern::Vars), DefineError> {
    use numeric::VarKind;
    let mut table = numeric::VarTable::new();
    let mut vars = pattern::Vars::default();
    let plain = |message: String| DefineError { message, at: None };
    for (i, d) in defines.iter().enumerate() {
        let Some((lhs, rhs)) = d.split_once('=') else {
            return Err(plain(format!(
                "Missing equal sign in command-line definition '-D{d}'"
            )));
        };
        if lhs.is_empty() || lhs == "#" {
            return Err(plain(format!(
                "Missing variable name in command-line definition '-D{d}'"
            )));
        }
        let at = |offset: usize, message: String| DefineError {
            message,
            at: Some((i, offset)),
        };
        if let Some(num) = d.strip_prefix('#') {
            let (lhs, rhs) = num.split_once('=').expect("has '='");
            let block = format!("{lhs}:{rhs}");
            // Offsets in the block are after its `#`.
            let b = numeric::parse_block(&block, 0, &table, &[]).map_err(|(o, m)| at(1 + o, m))?;
            let name = b.def.ok_or_else(|| at(1, "invalid variable name".into()))?;
            let name_at = 1 + lhs.rfind(name.as_str()).unwrap_or(0);
            match table.get(&name) {
                Some(VarKind::Str) => {
                    return Err(at(
                        name_at,
                        format!("string variable with name '{name}' already exists"),
                    ));
                }
                Some(VarKind::Num(Some(f))) if *f != b.format => {
                    return Err(at(
                        1 + lhs.len(),
                        "format different from previous variable definition".into(),
                    ));
                }
                _ => {}
            }
            let Some(expr) = b.expr else {
                return Err(at(
                    1 + lhs.len() + 1,
                    "missing expression in command-line definition".into(),
                ));
            };
            let value = expr.eval(&vars.nums).map_err(|e| match e {
                numeric::EvalError::Undefined(v) => plain(format!("undefined variable: {}", v[0])),
                numeric::EvalError::Overflow => plain("overflow error".into()),
            })?;
            table.insert(name.clone(), VarKind::Num(Some(b.format)));
            vars.nums.insert(name, value);
            continue;
        }
        let b = lhs.as_bytes();
        let first = usize::from(b[0] == b'$');
        if !b
            .get(first)
            .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
            && b[0] != b'@'
        {
            return Err(at(0, "invalid variable name".into()));
        }
        let valid = b[0] != b'@'
            && b[first..]
                .iter()
                .all(|c| c.is_ascii_alphanumeric() || *c == b'_');
        if !valid {
            return Err(at(
                0,
                format!("invalid name in string variable definition '{lhs}'"),
            ));
        }
        if let Some(VarKind::Num(_)) = table.get(lhs) {
            return Err(at(
                0,
                format!("numeric variable with name '{lhs}' already exists"),
            ));
        }
        // LLVM keeps the first definition of a string variable.
        table.insert(lhs.to_string(), VarKind::Str);
        vars.strs
            .entry(lhs.to_string())
            .or_insert_with(|| rhs.to_string());
    }
    Ok((table, vars))
}

/// Explains the input dump format (`--dump-input=help`), coloured as
/// LLVM's with `color` (`-color`).
pub fn dump_input_help(color: bool) -> String {
    llvm::dump_help(color)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(check_text: &str, input: &str, opts: &FileCheckOptions) -> Result<(), FileCheckFailure> {
        check(check_text, "t.check", input, "<stdin>", opts)
    }

    #[test]
    fn directive_suffixes_are_the_parsers() {
        assert_eq!(
            DIRECTIVE_SUFFIXES,
            ["NEXT", "SAME", "NOT", "DAG", "LABEL", "EMPTY"]
        );
        for word in DIRECTIVE_SUFFIXES.iter().copied().chain(["COUNT-2"]) {
            assert!(is_directive_suffix(word), "{word}");
            // The parser reads it as a directive: a check file of it alone
            // is not "no check strings found".
            let f = run(
                &format!("CHECK-{word}: a\n"),
                "b\n",
                &FileCheckOptions::default(),
            );
            let message = f.map_or_else(|f| f.report().to_string(), |()| String::new());
            assert!(!message.contains("no check strings"), "{word}: {message}");
        }
        for word in ["", "COUNT-", "COUNT-x", "NEXTX", "next", "COUNT"] {
            assert!(!is_directive_suffix(word), "{word}");
        }
        // Prefixes as the option check accepts them (LLVM takes `1A`).
        assert!(is_valid_prefix("1A-b_c"));
        for bad in ["", "A.B", "A B", "É"] {
            assert!(!is_valid_prefix(bad), "{bad}");
            let opts = FileCheckOptions {
                check_prefixes: vec![bad.to_string()],
                ..FileCheckOptions::default()
            };
            assert!(run("CHECK: a\n", "a\n", &opts).is_err(), "{bad}");
        }
    }

    #[test]
    fn passes_and_fails() {
        let o = FileCheckOptions::default();
        assert!(run("CHECK: foo\n", "a foo b\n", &o).is_ok());
        let f = run("CHECK: foo\nCHECK: bar\n", "foo\nbaz\n", &o).unwrap_err();
        assert_eq!(f.kind, FailureKind::Mismatch);
        assert_eq!(f.errors[0].line, 2);
        assert_eq!(f.errors[0].col, 8);
        assert_eq!(
            f.errors[0].message,
            "CHECK: expected string not found in input"
        );
        assert!(f.report().contains("scanning from here"));
        assert!(f.report().contains("<<<<<<"));
        // The dump shows the input as LLVM does: whitespace collapsed, a
        // space for the newline.
        let f = run("CHECK: foo\nCHECK-NEXT: bar\n", "foo\n    baz  qux\n", &o).unwrap_err();
        assert!(f.report().contains(" 2:  baz qux \n"), "{}", f.report());
    }

    /// `-vv` reports every match a CHECK-DAG search discards, as LLVM 19:
    /// an identical pattern searches from the group start again (LLVM's
    /// `dump-input/annotations.txt`, "DAG1L").
    #[test]
    fn very_verbose_dumps_every_discarded_dag_match() {
        let checks =
            "CHECK-DAG: def\nCHECK-DAG: bc\nCHECK-DAG: abc\nCHECK-DAG: de\nCHECK-DAG: def\n";
        let o = FileCheckOptions {
            verbose: 2,
            ..FileCheckOptions::default()
        };
        let f = run(checks, "abc def abc def\n", &o).unwrap_err();
        let dump = f.report().split("<<<<<<\n").nth(1).expect("a dump");
        let discards: Vec<&str> = dump.lines().filter(|l| l.starts_with("dag:5")).collect();
        assert_eq!(
            discards,
            [
                "dag:5'0         !~~          discard: overlaps earlier match",
                "dag:5'1                 !~~  discard: overlaps earlier match",
                "dag:5'2                   X~ error: no match found",
            ],
            "{dump}"
        );
    }

    /// `-v` with colours: input text no expected pattern matched is on
    /// LLVM's cyan background, byte for byte as FileCheck-19 prints it.
    #[test]
    fn verbose_colour_dump_highlights_unmatched_input() {
        let o = FileCheckOptions {
            verbose: 1,
            color: true,
            ..FileCheckOptions::default()
        };
        let checks = "CHECK: hello\nCHECK: world\nCHECK: nope\n";
        let f = run(checks, "hello there\nworld\n", &o).unwrap_err();
        let report = f.report();
        assert!(
            report.contains(": \x1b[0m\x1b[1m\x1b[0;1;46m\x1b[0mhello\x1b[0;1;46m there \x1b[0m\n"),
            "{report:?}"
        );
        assert!(
            report.contains(": \x1b[0m\x1b[1m\x1b[0;1;46m\x1b[0mworld\x1b[0;1;46m \x1b[0m\n"),
            "{report:?}"
        );
        // LLVM's colours leave one `\x1b[1m\x1b[0m` after `<<<<<<`, not one
        // per line.
        assert_eq!(report.matches("\x1b[1m\x1b[0m").count(), 1, "{report:?}");
        // Without `-v`, no highlight.
        let o = FileCheckOptions {
            color: true,
            ..FileCheckOptions::default()
        };
        let f = run(checks, "hello there\nworld\n", &o).unwrap_err();
        assert!(!f.report().contains("\x1b[0;1;46m"));
    }

    #[test]
    fn check_file_errors_are_located() {
        let o = FileCheckOptions::default();
        let f = run("CHECK: a\n  CHECK_NEXT: b\n", "a\n", &o).unwrap_err();
        assert_eq!(f.kind, FailureKind::CheckFile);
        assert_eq!(
            f.errors[0].to_string(),
            "t.check:2:3: error: misspelled directive 'CHECK_NEXT:'"
        );
        let f = run("// CHECK-NEXT: a\n", "a\n", &o).unwrap_err();
        assert_eq!((f.errors[0].line, f.errors[0].col), (1, 4));
        let f = run("CHECK:\t\t\n", "a\n", &o).unwrap_err();
        assert_eq!(
            f.errors[0].to_string(),
            "t.check:1:9: error: found empty check string with prefix 'CHECK:'"
        );
        let f = run("nothing\n", "a\n", &o).unwrap_err();
        assert_eq!(
            f.errors[0].to_string(),
            "error: no check strings found with prefix 'CHECK:'"
        );
        // At the `:` after the name, as LLVM.
        let f = run("CHECK: [[#N:]]\nCHECK: [[#%X,N:]]\n", "1\n1\n", &o).unwrap_err();
        assert_eq!(
            f.errors[0].to_string(),
            "t.check:2:15: error: format different from previous variable definition"
        );
        // LLVM prints this one plain even with colours.
        let coloured = FileCheckOptions {
            color: true,
            ..o.clone()
        };
        let f = run("nothing\n", "a\n", &coloured).unwrap_err();
        assert_eq!(
            f.report(),
            "error: no check strings found with prefix 'CHECK:'\n"
        );
    }

    #[test]
    fn each_undefined_variable_is_an_error_in_llvms_words() {
        let o = FileCheckOptions::default();
        let f = run("CHECK: [[A]] [[#B+1]]\n", "a\n", &o).unwrap_err();
        let messages: Vec<&str> = f.errors.iter().map(|e| e.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "CHECK: undefined variable: A",
                "CHECK: undefined variable: B"
            ]
        );
    }

    #[test]
    fn whitespace_options() {
        let mut o = FileCheckOptions::default();
        assert!(run("CHECK: a b\n", "a \t  b\n", &o).is_ok());
        o.strict_whitespace = true;
        assert!(run("CHECK: a b\n", "a \t  b\n", &o).is_err());
        let o = FileCheckOptions {
            match_full_lines: true,
            ..Default::default()
        };
        assert!(run("CHECK: a b\n", "  a b \n", &o).is_ok());
        assert!(run("CHECK: a b\n", "x a b\n", &o).is_err());
    }

    #[test]
    fn duplicate_prefixes_are_named_in_llvms_order() {
        let message = |check: &[&str], comment: Option<&[&str]>| {
            let o = FileCheckOptions {
                check_prefixes: check.iter().map(|s| s.to_string()).collect(),
                comment_prefixes: comment.map(|c| c.iter().map(|s| s.to_string()).collect()),
                ..Default::default()
            };
            let f = run("FOO: a\n", "a\n", &o).unwrap_err();
            assert_eq!(f.kind, FailureKind::Usage);
            f.errors[0].message.clone()
        };
        let dup = |what: &str, p: &str| {
            format!("supplied {what} prefix must be unique among check and comment prefixes: '{p}'")
        };
        assert_eq!(message(&["FOO", "COM"], None), dup("check", "COM"));
        assert_eq!(message(&["FOO"], Some(&["FOO"])), dup("comment", "FOO"));
        assert_eq!(message(&[], Some(&["X", "CHECK"])), dup("comment", "CHECK"));
    }

    #[test]
    fn empty_input_and_prefixes() {
        let o = FileCheckOptions::default();
        assert_eq!(
            run("CHECK: a\n", "", &o).unwrap_err().kind,
            FailureKind::EmptyInput
        );
        let o = FileCheckOptions {
            check_prefixes: vec!["A!".into()],
            ..Default::default()
        };
        assert_eq!(
            run("CHECK: a\n", "a", &o).unwrap_err().kind,
            FailureKind::Usage
        );
        let o = FileCheckOptions {
            check_prefixes: vec!["A".into(), "B".into()],
            ..Default::default()
        };
        assert!(run("A: x\nB-NEXT: y\n", "x\ny\n", &o).is_ok());
        // LLVM 14 lets a prefix start with a digit, `-` or `_`.
        let o = FileCheckOptions {
            check_prefixes: vec!["1X".into(), "_Y".into()],
            ..Default::default()
        };
        assert!(run("1X: x\n_Y: y\n", "x\ny\n", &o).is_ok());
        for bad in [vec!["A", "A"], vec![""], vec!["A.B"]] {
            let o = FileCheckOptions {
                check_prefixes: bad.iter().map(|s| s.to_string()).collect(),
                ..Default::default()
            };
            assert_eq!(
                run("A: x\n", "x\n", &o).unwrap_err().kind,
                FailureKind::Usage
            );
        }
    }

    #[test]
    fn command_line_defines() {
        let o = |d: &[&str]| FileCheckOptions {
            defines: d.iter().map(|s| s.to_string()).collect(),
            ..Default::default()
        };
        assert!(run("CHECK: [[V]] [[#N+1]]\n", "x 6\n", &o(&["V=x", "#N=5"])).is_ok());
        assert!(run("CHECK: [[#M]]\n", "a\n", &o(&["#%x,N=9", "#M=N+1"])).is_ok());
        // The first string definition wins.
        assert!(run("CHECK: [[V]]\n", "1\n", &o(&["V=1", "V=2"])).is_ok());
        let e = |d: &[&str]| {
            let f = run("CHECK: a\n", "a\n", &o(d)).unwrap_err();
            assert_eq!(f.kind, FailureKind::CheckFile);
            f.errors[0].message.clone()
        };
        let cases: [(&[&str], &str); 10] = [
            (&["10V=1"], "Global define #1: 10V=1: invalid variable name"),
            (
                &["@V=1"],
                "Global define #1: @V=1: invalid name in string variable definition '@V'",
            ),
            (
                &["X-Y=1"],
                "Global define #1: X-Y=1: invalid name in string variable definition 'X-Y'",
            ),
            (
                &["=1"],
                "Missing variable name in command-line definition '-D=1'",
            ),
            (
                &["X"],
                "Missing equal sign in command-line definition '-DX'",
            ),
            (
                &["N=1", "#N=2"],
                "Global define #2: #N=2: string variable with name 'N' already exists",
            ),
            (
                &["#N=1", "N=2"],
                "Global define #2: N=2: numeric variable with name 'N' already exists",
            ),
            (&["#N=x"], "undefined variable: x"),
            (
                &["#N=1", "#%x,N=1"],
                "Global define #2: #%x,N=1: format different from previous variable definition",
            ),
            (
                &["#%y,N=1"],
                "Global define #1: #%y,N=1: invalid format specifier in expression",
            ),
        ];
        for (defines, message) in cases {
            assert_eq!(e(defines), message, "{defines:?}");
        }
        // LLVM's report points into the buffer of definitions it makes.
        let f = run("CHECK: a\n", "a\n", &o(&["X=1", "#%x,N=1", "#X=2"])).unwrap_err();
        assert_eq!(
            f.report(),
            "Global defines:3:39: error: string variable with name 'X' already exists\n\
             Global define #3: #X=2 (parsed as: [[#X:2]])\n\
             \x20                                     ^\n\n"
        );
    }

    #[test]
    fn verbose_notes_every_match() {
        // As in LLVM, -v remarks are printed only without a dump (with
        // one, they are annotations of the dump instead).
        let mut o = FileCheckOptions {
            verbose: 1,
            dump_input: DumpInput::Never,
            ..Default::default()
        };
        let out = check_detailed("CHECK: a\nCHECK: b\n", "t.check", "a\nb\n", "<stdin>", &o);
        assert!(out.result.is_ok());
        assert_eq!(
            out.remarks
                .matches("remark: CHECK: expected string found in input")
                .count(),
            2
        );
        o.dump_input = DumpInput::Fail;
        let out = check_detailed("CHECK: a\nCHECK: b\n", "t.check", "a\nb\n", "<stdin>", &o);
        assert_eq!(out.remarks, "");
        let quiet = check_detailed(
            "CHECK: a\n",
            "t.check",
            "a\n",
            "<stdin>",
            &Default::default(),
        );
        assert!(quiet.remarks.is_empty());
    }

    /// LLVM's `-v` notes on captures, and its `-vv` report of CHECK-DAG
    /// matches discarded as overlapping, in its order.
    #[test]
    fn verbose_notes_captures_and_discarded_dag_matches() {
        let o = |verbose| FileCheckOptions {
            verbose,
            dump_input: DumpInput::Never,
            ..Default::default()
        };
        let check = "CHECK: x=[[X:[a-z]+]] [[#N:]]\nCHECK-DAG: abcdef\nCHECK-DAG: def\n";
        let input = "x=foo 42\nabcdef\nabcdef\n";
        let out = check_detailed(check, "t.check", input, "<stdin>", &o(1));
        assert!(out.result.is_ok());
        let r = &out.remarks;
        let foo = "<stdin>:1:3: note: captured var \"X\"\nx=foo 42\n  ^~~\n";
        let n = "<stdin>:1:7: note: captured var \"N\"\nx=foo 42\n      ^~\n";
        assert!(r.contains(&format!("{foo}{n}")), "{r}");
        assert!(!r.contains("discarded"), "{r}");
        // A variable defined twice in one pattern: one note, at the last.
        let out = check_detailed(
            "CHECK: [[#N:]] [[#N:]]\n",
            "t.check",
            "1 2\n",
            "<stdin>",
            &o(1),
        );
        assert_eq!(
            out.remarks.matches("captured var").count(),
            1,
            "{}",
            out.remarks
        );
        assert!(
            out.remarks
                .contains("<stdin>:1:3: note: captured var \"N\"")
        );
        let out = check_detailed(check, "t.check", input, "<stdin>", &o(2));
        let r = &out.remarks;
        let discarded = "<stdin>:2:4: note: found here\nabcdef\n   ^~~\n\
            <stdin>:2:1: note: match discarded, overlaps earlier DAG match here\n\
            abcdef\n^~~~~~\nt.check:3:12: remark: CHECK-DAG: expected string found in input\n\
            CHECK-DAG: def\n           ^\n<stdin>:3:4: note: found here\n";
        assert!(r.contains(discarded), "{r}");
        // The discarded match is not the directive's result.
        let dag: Vec<_> = out
            .directives
            .iter()
            .filter(|d| d.check_line == 3)
            .collect();
        assert_eq!(dag.len(), 1);
    }

    #[test]
    fn implicit_check_not() {
        let o = FileCheckOptions {
            implicit_check_not: vec!["warning".into()],
            ..Default::default()
        };
        assert!(run("CHECK: a\n", "a\nb\n", &o).is_ok());
        let f = run("CHECK: a\n", "a\nwarning: x\n", &o).unwrap_err();
        assert_eq!(
            f.errors[0].message,
            "IMPLICIT-CHECK-NOT: excluded string found in input"
        );
    }

    #[test]
    fn directive_results_locate_matches_and_misses_in_the_original_input() {
        let checks = "// CHECK: alpha\n// CHECK-NEXT: gamma\n// CHECK: omega\n";
        let input = "x  alpha\nbeta\ngamma ray\n";
        let outcome = check_detailed(checks, "c", input, "in", &FileCheckOptions::default());
        assert!(outcome.result.is_err());
        let d = &outcome.directives;
        assert_eq!(d[0].check_line, 1);
        assert_eq!(d[0].status, DirectiveStatus::Matched);
        // Whitespace was canonicalized for matching; the range is the original's.
        assert_eq!(&input[d[0].input.clone()], "alpha");
        assert_eq!(d[1].check_line, 2);
        assert_eq!(d[1].status, DirectiveStatus::WrongLine);
        assert_eq!(&input[d[1].input.clone()], "gamma");
        // Matching stops at the first failure, as in LLVM.
        assert!(d.iter().all(|r| r.check_line != 3));
    }

    #[test]
    fn directive_results_offer_the_closest_candidate() {
        let outcome = check_detailed(
            "// CHECK: call @foo(i32 1)\n",
            "c",
            "nothing\ncall @foo(i32 2)\n",
            "in",
            &FileCheckOptions::default(),
        );
        let r = &outcome.directives[0];
        assert_eq!(r.status, DirectiveStatus::NotFound);
        let input = "nothing\ncall @foo(i32 2)\n";
        assert_eq!(&input[r.candidate.clone().unwrap()], "call @foo(i32 2)");
    }
}
