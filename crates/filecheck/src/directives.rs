//! Parsing a check file into directives: finding `PREFIX:` / `PREFIX-NEXT:`
//! etc. (LLVM's rules: a prefix must not continue a word, the longest prefix
//! wins), reporting malformed directives with their location, and grouping
//! CHECK-DAG / CHECK-NOT directives with the positive directive after them.

use super::numeric::VarTable;
use super::pattern::{CheckKind, ParseSettings, Pattern};
use regex::Regex;
use std::collections::BTreeSet;

/// Where a directive came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
    /// The check file; offsets are into its canonical text.
    CheckFile,
    /// The n-th `--implicit-check-not` pattern.
    ImplicitNot(usize),
}

/// One directive with its pattern.
#[derive(Debug, Clone)]
pub(crate) struct Directive {
    pub pat: Pattern,
    pub prefix: String,
    pub source: Source,
    /// Offset of the prefix (check file) in the canonical text.
    pub prefix_offset: usize,
    /// Offset of the pattern text (check file) in the canonical text.
    pub pattern_offset: usize,
    /// 1-based line in the check file.
    pub line: usize,
    /// Written with the `{LITERAL}` modifier.
    pub literal: bool,
}

impl Directive {
    /// The directive as written: `CHECK-NEXT`, `CHECK-COUNT-3`, ...
    pub fn name(&self) -> String {
        if self.pat.count > 1 {
            format!("{}-COUNT-{}", self.prefix, self.pat.count)
        } else {
            format!("{}{}", self.prefix, self.pat.kind.suffix())
        }
    }
}

/// A positive directive and the CHECK-DAG / CHECK-NOT directives before it.
#[derive(Debug, Clone)]
pub(crate) struct CheckString {
    pub main: Directive,
    pub dag_nots: Vec<Directive>,
}

/// A malformed check file (or command line).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ParseError {
    /// Offset in the canonical check text, when the error has a location.
    pub offset: Option<usize>,
    pub message: String,
}

/// What the parser needs from the options.
#[derive(Debug, Clone)]
pub(crate) struct ParseConfig<'a> {
    pub prefixes: &'a [String],
    pub comment_prefixes: &'a [String],
    pub implicit_not: &'a [String],
    pub strict_whitespace: bool,
    pub match_full_lines: bool,
    pub ignore_case: bool,
    pub allow_unused_prefixes: bool,
    /// No `--check-prefix(es)` was given.
    pub default_prefix: bool,
    /// The variables defined on the command line (`-D`, `-D#`).
    pub vars: &'a VarTable,
    /// Reject suffixes within one edit of a directive's (`CHECK-NXT:`).
    pub reject_misspelled_suffixes: bool,
}

#[cfg(test)]
impl<'a> ParseConfig<'a> {
    /// FileCheck's defaults with these prefixes (for tests).
    pub(crate) fn defaults(prefixes: &'a [String], comments: &'a [String]) -> Self {
        static EMPTY: std::sync::LazyLock<VarTable> = std::sync::LazyLock::new(VarTable::new);
        ParseConfig {
            prefixes,
            comment_prefixes: comments,
            implicit_not: &[],
            strict_whitespace: false,
            match_full_lines: false,
            ignore_case: false,
            allow_unused_prefixes: false,
            default_prefix: true,
            vars: &EMPTY,
            reject_misspelled_suffixes: false,
        }
    }
}

pub(crate) const SUFFIXES: [(&str, CheckKind); 6] = [
    ("NEXT", CheckKind::Next),
    ("SAME", CheckKind::Same),
    ("NOT", CheckKind::Not),
    ("DAG", CheckKind::Dag),
    ("LABEL", CheckKind::Label),
    ("EMPTY", CheckKind::Empty),
];

/// The result of looking at what follows a prefix.
enum Kind {
    None,
    Comment(usize),
    Found {
        kind: CheckKind,
        count: usize,
        literal: bool,
        after: usize,
    },
    /// Malformed: message and offset relative to the prefix end.
    Bad(usize, String),
    /// A suffix that looks like a misspelled directive (reported at the prefix).
    Misspelled(String),
    /// A suffix within one edit of a directive's (`CHECK-NXT:`): text to
    /// LLVM, an error with `--reject-misspelled-suffixes` (pfir's option).
    CloseSuffix(String),
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-' || b == b'_'
}

/// Checks that every prefix the user supplied is well formed (ASCII
/// letters, digits, `-` and `_`, in any order: LLVM 14 and 19 accept `1A`
/// although their message, kept here, says "must start with a letter") and
/// not in `seen` (as LLVM: the defaults of the kind not supplied, then the
/// check prefixes, then the comment prefixes), adding it there.
pub(crate) fn validate_prefixes(
    prefixes: &[String],
    what: &str,
    seen: &mut BTreeSet<String>,
) -> Result<(), String> {
    for p in prefixes {
        if p.is_empty() {
            return Err(format!(
                "supplied {what} prefix must not be the empty string"
            ));
        }
        if !crate::is_valid_prefix(p) {
            return Err(format!(
                "supplied {what} prefix must start with a letter and contain only alphanumeric \
                 characters, hyphens, and underscores: '{p}'"
            ));
        }
        if !seen.insert(p.clone()) {
            return Err(format!(
                "supplied {what} prefix must be unique among check and comment prefixes: '{p}'"
            ));
        }
    }
    Ok(())
}

/// Classifies the text `rest` following `prefix` (LLVM's FindCheckType).
fn classify(prefix: &str, rest: &str, comment: bool) -> Kind {
    let b = rest.as_bytes();
    let Some(&next) = b.first() else {
        return Kind::None;
    };
    if comment {
        return if next == b':' {
            Kind::Comment(1)
        } else {
            Kind::None
        };
    }
    if next == b':' {
        return Kind::Found {
            kind: CheckKind::Plain,
            count: 1,
            literal: false,
            after: 1,
        };
    }
    if next == b'{' {
        return literal_modifier(rest).map_or(Kind::None, |after| Kind::Found {
            kind: CheckKind::Plain,
            count: 1,
            literal: true,
            after,
        });
    }
    match next {
        b'-' => {}
        b'_' => return misspelled(prefix, rest),
        _ => return Kind::None,
    }
    let r = &rest[1..];
    if let Some(num) = r.strip_prefix("COUNT-") {
        return classify_count(prefix, num);
    }
    for combo in [
        "DAG-NOT:",
        "NOT-DAG:",
        "NEXT-NOT:",
        "NOT-NEXT:",
        "SAME-NOT:",
        "NOT-SAME:",
        "EMPTY-NOT:",
        "NOT-EMPTY:",
    ] {
        if r.starts_with(combo) {
            return Kind::Bad(1, format!("unsupported -NOT combo on prefix '{prefix}'"));
        }
    }
    for (word, kind) in SUFFIXES {
        if let Some(m) = r.strip_prefix(word) {
            let base = 1 + word.len();
            if m.starts_with(':') {
                return Kind::Found {
                    kind,
                    count: 1,
                    literal: false,
                    after: base + 1,
                };
            }
            return literal_modifier(m).map_or(Kind::None, |after| Kind::Found {
                kind,
                count: 1,
                literal: true,
                after: base + after,
            });
        }
    }
    // pfir extension: a suffix that looks like a misspelled directive.
    let word_len = r.bytes().take_while(u8::is_ascii_alphabetic).count();
    let word = &r[..word_len];
    // `CHECK-COUNT:` without a count is prose to LLVM, never a directive.
    if word_len >= 3 && word != "COUNT" && matches!(r.as_bytes().get(word_len), Some(b':')) {
        let upper = word.to_ascii_uppercase();
        let close = SUFFIXES
            .iter()
            .map(|(w, _)| *w)
            .chain(["COUNT"])
            .any(|w| upper == w || strsim::osa_distance(&upper, w) <= 1);
        if close {
            return Kind::CloseSuffix(format!("misspelled directive '{prefix}-{word}:'"));
        }
    }
    Kind::None
}

/// `PREFIX_NEXT:` and the like: a directive but for `_` in place of the
/// `-` (LLVM 18 and later report it as "misspelled directive", naming the
/// text up to where the directive's reading ended; LLVM 14 reads it as
/// text). `rest` starts at the `_`.
fn misspelled(prefix: &str, rest: &str) -> Kind {
    let dashed = format!("-{}", &rest[1..]);
    let end = match classify(prefix, &dashed, false) {
        Kind::Found { after, .. } => after,
        Kind::Bad(at, _) => at,
        Kind::None | Kind::Comment(_) | Kind::Misspelled(_) | Kind::CloseSuffix(_) => {
            return Kind::None;
        }
    };
    Kind::Misspelled(format!("misspelled directive '{prefix}{}'", &rest[..end]))
}

/// Classifies `num`, what follows `PREFIX-COUNT-` (offsets in the result
/// are relative to the prefix end, as in [`classify`]).
fn classify_count(prefix: &str, num: &str) -> Kind {
    let digits = num.bytes().take_while(u8::is_ascii_digit).count();
    let bad = |o: usize| {
        Kind::Bad(
            o,
            format!("invalid count in -COUNT specification on prefix '{prefix}'"),
        )
    };
    let at = 7 + digits;
    // LLVM reads a 64-bit count (failing at its start), then refuses 0
    // and counts past `i32::MAX` after it.
    let Ok(count) = num[..digits].parse::<u64>() else {
        return bad(7);
    };
    if count == 0 || count > i32::MAX as u64 {
        return bad(at);
    }
    let tail = &num[digits..];
    if tail.starts_with(':') {
        return Kind::Found {
            kind: CheckKind::Plain,
            count: count as usize,
            literal: false,
            after: at + 1,
        };
    }
    // `CHECK-COUNT-2{LITERAL}:`
    literal_modifier(tail).map_or_else(
        || bad(at),
        |after| Kind::Found {
            kind: CheckKind::Plain,
            count: count as usize,
            literal: true,
            after: at + after,
        },
    )
}

/// The modifiers `{LITERAL}` (a comma-separated list) and the colon at the
/// start of `tail`: the length they take, or `None` when `tail` does not
/// start with a `{...}:` that holds only `LITERAL`s.
fn literal_modifier(tail: &str) -> Option<usize> {
    let close = tail.strip_prefix('{')?.find("}:")?;
    tail[1..1 + close]
        .split(',')
        .all(|x| x.trim() == "LITERAL")
        .then_some(1 + close + 2)
}

/// The `--implicit-check-not` patterns, as CHECK-NOT directives.
fn implicit_nots(
    cfg: &ParseConfig<'_>,
    settings: ParseSettings,
    table: &mut VarTable,
) -> Result<Vec<Directive>, ParseError> {
    let mut implicit = Vec::new();
    for (i, p) in cfg.implicit_not.iter().enumerate() {
        let pat = Pattern::parse(p, CheckKind::Not, 1, "IMPLICIT-CHECK", settings, table).map_err(
            |e| ParseError {
                offset: None,
                message: format!("in --implicit-check-not='{p}': {}", e.message),
            },
        )?;
        implicit.push(Directive {
            pat,
            prefix: "IMPLICIT-CHECK".into(),
            source: Source::ImplicitNot(i),
            prefix_offset: 0,
            pattern_offset: 0,
            line: 0,
            literal: false,
        });
    }
    Ok(implicit)
}

/// A regex finding any check or comment prefix, the longest first.
fn prefix_regex(cfg: &ParseConfig<'_>) -> std::rc::Rc<Regex> {
    let mut all: Vec<&String> = cfg.prefixes.iter().chain(cfg.comment_prefixes).collect();
    all.sort_by_key(|p| std::cmp::Reverse(p.len()));
    let alternation: Vec<String> = all.iter().map(|p| regex::escape(p)).collect();
    cached_prefix_regex(alternation.join("|"))
}

/// The regex that finds the prefixes `alternation` (escaped, longest
/// first), built once per thread for the prefixes used last: a test run
/// checks file after file with the same ones, and building the automaton
/// costs more than scanning a small check file. Shared, not cloned (a
/// clone would build its search cache again).
fn cached_prefix_regex(alternation: String) -> std::rc::Rc<Regex> {
    thread_local! {
        static LAST: std::cell::RefCell<Option<(String, std::rc::Rc<Regex>)>> =
            const { std::cell::RefCell::new(None) };
    }
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        match &*last {
            Some((key, re)) if *key == alternation => re.clone(),
            _ => {
                let re = Regex::new(&alternation).expect("escaped prefixes form a regex");
                let re = std::rc::Rc::new(re);
                *last = Some((alternation, re.clone()));
                re
            }
        }
    })
}

/// LLVM's rules on where a directive may stand: no variables in a LABEL,
/// no NEXT / SAME / EMPTY before the first positive directive (`first`).
fn check_placement(pat: &Pattern, prefix: &str, at: usize, first: bool) -> Result<(), ParseError> {
    let kind = pat.kind;
    if kind == CheckKind::Label && pat.has_vars {
        return Err(ParseError {
            offset: Some(at),
            message: format!("found '{prefix}-LABEL:' with variable definition or use"),
        });
    }
    if matches!(kind, CheckKind::Next | CheckKind::Same | CheckKind::Empty) && first {
        return Err(ParseError {
            offset: Some(at),
            message: format!(
                "found '{prefix}{}' without previous '{prefix}: line",
                kind.suffix()
            ),
        });
    }
    Ok(())
}

/// Every check prefix must be used, unless `--allow-unused-prefixes` (at
/// least one must be, unless there are implicit CHECK-NOTs and the prefix
/// is the default).
fn check_unused(
    cfg: &ParseConfig<'_>,
    used: &BTreeSet<&str>,
    no_implicit: bool,
) -> Result<(), ParseError> {
    let unused: Vec<&String> = cfg
        .prefixes
        .iter()
        .filter(|p| !used.contains(p.as_str()))
        .collect();
    let none_found = unused.len() == cfg.prefixes.len();
    if (none_found || (!cfg.allow_unused_prefixes && !unused.is_empty()))
        && (no_implicit || !cfg.default_prefix)
    {
        let list: Vec<String> = unused.iter().map(|p| format!("'{p}:'")).collect();
        return Err(ParseError {
            offset: None,
            message: format!(
                "no check strings found with prefix{} {}",
                if unused.len() > 1 { "es" } else { "" },
                list.join(", ")
            ),
        });
    }
    Ok(())
}

/// The end of the word at `from`: LLVM's `SkipWord`, past letters,
/// digits, `-` and `_`.
fn skip_word(bytes: &[u8], from: usize) -> usize {
    from + bytes[from..].iter().take_while(|&&b| is_word(b)).count()
}

/// Parses the canonical check text into check strings.
pub(crate) fn parse(text: &str, cfg: &ParseConfig<'_>) -> Result<Vec<CheckString>, ParseError> {
    let settings = |line: usize, literal: bool| ParseSettings {
        strict_whitespace: cfg.strict_whitespace,
        match_full_lines: cfg.match_full_lines,
        ignore_case: cfg.ignore_case,
        literal,
        line,
    };
    let mut table = cfg.vars.clone();
    let implicit = implicit_nots(cfg, settings(1, false), &mut table)?;
    let prefix_re = prefix_regex(cfg);

    let bytes = text.as_bytes();
    let mut strings: Vec<CheckString> = Vec::new();
    let mut dag_nots = implicit.clone();
    let mut used: BTreeSet<&str> = BTreeSet::new();
    let mut pos = 0;
    let mut line = 1;
    let mut line_counted_to = 0;
    // Where LLVM's scan of the check file stops: after the last directive
    // or comment (the end of its line), or after the last word it skipped.
    // The implicit end-of-input directive is located there.
    let mut scanned_to = 0;
    while let Some(m) = prefix_re.find_at(text, pos) {
        fsutil::cancel::checkpoint();
        let p = m.start();
        let prefix = m.as_str();
        if p > 0 && is_word(bytes[p - 1]) {
            pos = p + 1;
            scanned_to = pos;
            continue;
        }
        let comment = cfg.comment_prefixes.iter().any(|c| c == prefix)
            && !cfg.prefixes.iter().any(|c| c == prefix);
        let after_prefix = p + prefix.len();
        let kind = classify(prefix, &text[after_prefix..], comment);
        line += text[line_counted_to..p].matches('\n').count();
        line_counted_to = p;
        let (kind, count, literal, after) = match kind {
            Kind::None => {
                pos = p + 1;
                scanned_to = skip_word(bytes, after_prefix);
                continue;
            }
            Kind::CloseSuffix(_) if !cfg.reject_misspelled_suffixes => {
                pos = p + 1;
                scanned_to = skip_word(bytes, after_prefix);
                continue;
            }
            Kind::Bad(o, message) => {
                return Err(ParseError {
                    offset: Some(after_prefix + o),
                    message,
                });
            }
            Kind::Misspelled(message) | Kind::CloseSuffix(message) => {
                return Err(ParseError {
                    offset: Some(p),
                    message,
                });
            }
            Kind::Comment(after) => {
                let eol = text[after_prefix + after..]
                    .find(['\n', '\r'])
                    .map_or(text.len(), |e| after_prefix + after + e);
                pos = eol;
                scanned_to = eol;
                continue;
            }
            Kind::Found {
                kind,
                count,
                literal,
                after,
            } => (kind, count, literal, after),
        };
        let (start, eol) = pattern_bounds(text, after_prefix + after, cfg);
        pos = eol;
        scanned_to = eol;
        used.insert(prefix);
        // A directive whose pattern would start at the very end of the
        // check file (no newline after it) reads, in LLVM, the NUL byte
        // after its buffer: a pattern no input holds, and a non-empty one
        // for CHECK-EMPTY.
        let source = if start == text.len() {
            "\0"
        } else {
            &text[start..eol]
        };
        let pat = Pattern::parse(
            source,
            kind,
            count,
            prefix,
            settings(line, literal),
            &mut table,
        )
        .map_err(|e| ParseError {
            offset: Some(start + e.offset),
            message: e.message,
        })?;
        check_placement(&pat, prefix, p, strings.is_empty())?;
        let d = Directive {
            pat,
            prefix: prefix.to_string(),
            source: Source::CheckFile,
            prefix_offset: p,
            pattern_offset: start,
            line,
            literal,
        };
        if matches!(kind, CheckKind::Dag | CheckKind::Not) {
            dag_nots.push(d);
            continue;
        }
        strings.push(CheckString {
            main: d,
            dag_nots: std::mem::replace(&mut dag_nots, implicit.clone()),
        });
    }

    check_unused(cfg, &used, implicit.is_empty())?;
    if !dag_nots.is_empty() {
        // Trailing DAG / NOT directives are anchored at the end of the input.
        strings.push(CheckString {
            main: Directive {
                pat: Pattern::eof(),
                prefix: cfg.prefixes[0].clone(),
                source: Source::CheckFile,
                prefix_offset: scanned_to,
                pattern_offset: scanned_to,
                line: text[..scanned_to].matches('\n').count() + 1,
                literal: false,
            },
            dag_nots,
        });
    }
    Ok(strings)
}

/// The pattern text of a directive whose colon ends at `from`: its start
/// (after leading blanks unless both strict options are on) and the end of
/// its line.
fn pattern_bounds(text: &str, from: usize, cfg: &ParseConfig<'_>) -> (usize, usize) {
    let mut start = from;
    if !(cfg.strict_whitespace && cfg.match_full_lines) {
        start += text[start..]
            .bytes()
            .take_while(|b| *b == b' ' || *b == b'\t')
            .count();
    }
    let eol = text[start..]
        .find(['\n', '\r'])
        .map_or(text.len(), |e| start + e);
    (start, eol)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg<'a>(prefixes: &'a [String], comments: &'a [String]) -> ParseConfig<'a> {
        ParseConfig::defaults(prefixes, comments)
    }

    fn run(text: &str) -> Result<Vec<CheckString>, ParseError> {
        let p = vec!["CHECK".to_string()];
        let c = vec!["COM".to_string(), "RUN".to_string()];
        parse(text, &cfg(&p, &c))
    }

    fn err_at(text: &str) -> (usize, String) {
        let e = run(text).unwrap_err();
        (e.offset.expect("located"), e.message)
    }

    #[test]
    fn finds_kinds_and_groups_dag_not() {
        let s =
            run("CHECK: a\nCHECK-DAG: b\nCHECK-NOT: c\nCHECK-NEXT: d\nCHECK-COUNT-2: e\n").unwrap();
        assert_eq!(s.len(), 3);
        assert_eq!(s[1].main.pat.kind, CheckKind::Next);
        assert_eq!(s[1].dag_nots.len(), 2);
        assert_eq!(s[2].main.name(), "CHECK-COUNT-2");
        assert_eq!(s[1].main.line, 4);
    }

    #[test]
    fn prefix_must_start_a_word() {
        let s = run("XCHECK: no\nCHECK-FOO CHECK: yes\n// CHECK: also\n").unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].main.pat.text, "yes");
    }

    #[test]
    fn comments_hide_directives() {
        let s = run("// COM: CHECK: hidden\n// RUN: true CHECK: x\nCHECK: shown\n").unwrap();
        assert_eq!(s.len(), 1);
    }

    #[test]
    fn trailing_dag_not_get_eof() {
        let text = "CHECK: a\nCHECK-NOT: b\n\nprose CHECKS\n";
        let s = run(text).unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s[1].main.pat.kind, CheckKind::Eof);
        // Located where LLVM's scan stopped: after the last word it
        // skipped, else at the end of the last directive's line.
        assert_eq!(s[1].main.pattern_offset, text.len() - 1);
        assert_eq!(s[1].main.line, 4);
        let s = run("CHECK: a\nCHECK-NOT: b\n\nprose\n").unwrap();
        assert_eq!((s[1].main.pattern_offset, s[1].main.line), (21, 2));
    }

    #[test]
    fn prefix_errors_use_llvms_wording() {
        assert_eq!(
            validate_prefixes(&["A!".into()], "check", &mut BTreeSet::new()).unwrap_err(),
            "supplied check prefix must start with a letter and contain only alphanumeric \
             characters, hyphens, and underscores: 'A!'"
        );
        let mut seen = BTreeSet::new();
        assert!(validate_prefixes(&["1A".into(), "_B-".into()], "comment", &mut seen).is_ok());
        assert_eq!(
            validate_prefixes(&["C".into(), "_B-".into()], "check", &mut seen).unwrap_err(),
            "supplied check prefix must be unique among check and comment prefixes: '_B-'"
        );
    }

    #[test]
    fn underscore_for_dash_is_a_misspelled_directive() {
        for (text, word) in [
            ("CHECK: a\nCHECK_NEXT: b\n", "CHECK_NEXT:"),
            ("CHECK: a\nCHECK_COUNT-2: b\n", "CHECK_COUNT-2:"),
            ("CHECK: a\nCHECK_DAG{LITERAL}: b\n", "CHECK_DAG{LITERAL}:"),
            ("CHECK: a\nCHECK_NOT-DAG: b\n", "CHECK_"),
            ("CHECK: a\nCHECK_COUNT-0: b\n", "CHECK_COUNT-0"),
        ] {
            assert_eq!(err_at(text), (9, format!("misspelled directive '{word}'")));
        }
        // Not a directive with `-` either: text, as in LLVM.
        for text in [
            "CHECK: a\nCHECK_NXT: b\n",
            "CHECK: a\nCHECK_: b\n",
            "CHECK: a\nCHECK_LABELS b\n",
        ] {
            assert_eq!(run(text).unwrap().len(), 1, "{text:?}");
        }
        // A prefix with `_` in it is matched first.
        let p = vec!["P".to_string(), "P_NEXT".to_string()];
        let s = parse("P_NEXT: a\nP: b\n", &cfg(&p, &[])).unwrap();
        assert_eq!(s[0].main.name(), "P_NEXT");
    }

    #[test]
    fn malformed_directives() {
        // A suffix one edit from a directive's is text, as in LLVM 19,
        // unless --reject-misspelled-suffixes.
        assert_eq!(run("CHECK: a\nCHECK-NXT: b\n").unwrap().len(), 1);
        let p = vec!["CHECK".to_string()];
        let strict = ParseConfig {
            reject_misspelled_suffixes: true,
            ..cfg(&p, &[])
        };
        let e = parse("CHECK: a\nCHECK-NXT: b\n", &strict).unwrap_err();
        assert_eq!(
            (e.offset, e.message.as_str()),
            (Some(9), "misspelled directive 'CHECK-NXT:'")
        );
        assert_eq!(
            err_at("CHECK-NEXT: a\n"),
            (0, "found 'CHECK-NEXT' without previous 'CHECK: line".into())
        );
        assert_eq!(
            err_at("x\nCHECK:   \n"),
            (11, "found empty check string with prefix 'CHECK:'".into())
        );
        assert_eq!(
            err_at("CHECK: a\nCHECK-NOT-NEXT: b\n"),
            (15, "unsupported -NOT combo on prefix 'CHECK'".into())
        );
        assert_eq!(
            err_at("CHECK-COUNT-0: b\n"),
            (
                13,
                "invalid count in -COUNT specification on prefix 'CHECK'".into()
            )
        );
        // Past i32::MAX but within 64 bits: after the digits, as LLVM.
        assert_eq!(err_at("CHECK-COUNT-99999999999: a\n").0, 23);
        assert_eq!(err_at("CHECK-COUNT-99999999999999999999: a\n").0, 12);
        assert_eq!(
            err_at("CHECK-LABEL: [[X:a]]\n"),
            (
                0,
                "found 'CHECK-LABEL:' with variable definition or use".into()
            )
        );
        assert_eq!(
            err_at("CHECK: a\nCHECK-EMPTY: b\n"),
            (
                22,
                "found non-empty check string for empty check with prefix 'CHECK:'".into()
            )
        );
    }

    #[test]
    fn count_without_number_is_prose() {
        let s = run("CHECK: a\n; note: CHECK-COUNT: bar\n").unwrap();
        assert_eq!(s.len(), 1);
        assert!(run("CHECK: a\nCHECK-COUNT-x: b\n").is_err());
    }

    #[test]
    fn no_directives() {
        let e = run("nothing here\n").unwrap_err();
        assert_eq!(e.offset, None);
        assert_eq!(e.message, "no check strings found with prefix 'CHECK:'");
    }

    #[test]
    fn unused_prefix_is_reported() {
        let p = vec!["CHECK".to_string(), "FOO".to_string()];
        let e = parse("CHECK: a\n", &cfg(&p, &[])).unwrap_err();
        assert_eq!(e.message, "no check strings found with prefix 'FOO:'");
    }

    /// A suffix one edit (or one swap of neighbours) from a directive's is
    /// a close suffix (an error only with `--reject-misspelled-suffixes`);
    /// two edits away it is prose.
    #[test]
    fn misspelled_directives_are_one_edit_away() {
        for (rest, close) in [("-NXT:", true), ("-DGA:", true), ("-OPT:", false)] {
            let kind = classify("CHECK", rest, false);
            assert_eq!(matches!(kind, Kind::CloseSuffix(_)), close, "{rest}");
        }
    }
}
