//! One directive's pattern: parsing `{{regex}}`, `[[VAR:regex]]`, `[[VAR]]`
//! and literal text into something that can be searched for, and searching.
//!
//! Regexes in check files are POSIX extended regexes, as in LLVM FileCheck;
//! they are translated to the `regex` crate's syntax here (newline-sensitive:
//! `.` and `[^...]` never match a newline, `^`/`$` match at line boundaries).
//! Variables hold strings: a use is replaced by the variable's value, matched
//! literally; a use of a variable defined earlier on the same line behaves
//! like a back-reference.

use super::numeric::{self, EvalError, Expr, Format, VarKind, VarTable};
use crate::re::{Captures, Flags, Regex};
use std::collections::HashMap;
use std::fmt::Write as _;

/// The values of the variables while matching.
#[derive(Debug, Clone, Default)]
pub(crate) struct Vars {
    pub strs: HashMap<String, String>,
    pub nums: HashMap<String, numeric::Num>,
}

/// The value a match gives a variable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Value {
    Str(String),
    Num(numeric::Num),
}

/// A variable defined by a pattern: name, capture group, and for a
/// numeric variable its format.
#[derive(Debug, Clone)]
struct Def {
    name: String,
    group: String,
    /// LLVM's number for the group (the backtracking engine's too).
    number: usize,
    num: Option<Format>,
}

/// The directive kinds (the suffix after the prefix).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CheckKind {
    Plain,
    Next,
    Same,
    Not,
    Dag,
    Label,
    Empty,
    /// The implicit end-of-input pattern that anchors trailing NOT/DAGs.
    Eof,
}

impl CheckKind {
    /// The directive suffix as written after the prefix (`-NEXT`, ...).
    pub fn suffix(self) -> &'static str {
        match self {
            CheckKind::Plain | CheckKind::Eof => "",
            CheckKind::Next => "-NEXT",
            CheckKind::Same => "-SAME",
            CheckKind::Not => "-NOT",
            CheckKind::Dag => "-DAG",
            CheckKind::Label => "-LABEL",
            CheckKind::Empty => "-EMPTY",
        }
    }
}

/// A malformed pattern: `offset` is relative to the pattern's source text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PatternError {
    pub offset: usize,
    pub message: String,
}

/// The settings that change how a pattern is parsed.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ParseSettings {
    pub strict_whitespace: bool,
    pub match_full_lines: bool,
    pub ignore_case: bool,
    /// `{LITERAL}` modifier: no regexes or variables.
    pub literal: bool,
    /// Line number of the directive (for `[[@LINE]]`).
    pub line: usize,
}

/// Why a search could not even be attempted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum MatchError {
    UndefinedVariables(Vec<String>),
    InvalidRegex(String),
    /// A regex with back-references used up its backtracking budget.
    BacktrackLimit,
    /// A numeric expression left the representable range.
    Overflow,
    /// The substituted values add up to more than `MAX_SUBSTITUTED` bytes.
    TooLarge,
    /// A numeric variable matched text too large for its format.
    Unrepresentable(String),
}

/// A successful search: the byte range in the searched buffer, and the
/// values of the variables the pattern defines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Found {
    pub start: usize,
    pub end: usize,
    pub defs: Vec<(String, Value)>,
    /// Where each of `defs` was captured in the searched buffer (LLVM's
    /// `captured var` notes); `None` for a group that took no part.
    pub spans: Vec<Option<std::ops::Range<usize>>>,
}

#[derive(Debug, Clone)]
enum Piece {
    /// Literal text from the pattern.
    Lit(String),
    /// A numeric expression: its value, printed in `format`, matched literally.
    Num {
        expr: Expr,
        format: Format,
        /// The block as written after `#` (LLVM's name for it in notes).
        src: String,
    },
    /// Regex text in the `regex` crate's syntax.
    Re(String),
    /// A variable defined on an earlier line: its value, matched literally.
    Subst(String),
    /// A variable defined earlier on this line.
    Backref {
        group: String,
        def_re: String,
        number: usize,
    },
    /// Opens a definition's capture group: named for the linear engine,
    /// numbered for the backtracking one (which cannot mix the two).
    Open(String),
}

#[derive(Debug, Clone)]
enum Matcher {
    Fixed(String),
    Regex {
        pieces: Vec<Piece>,
        /// Compiled up front when nothing depends on variable values.
        compiled: Option<Engine>,
        defs: Vec<Def>,
        has_backrefs: bool,
        flags: Flags,
        /// CHECK-EMPTY: the match starts after the consumed newline.
        skip_first: bool,
        /// Nothing but literal text and substitutions, case-sensitive: once
        /// substituted, the pattern is searched for as text (a regex of a
        /// long literal costs time in proportion to its length for each
        /// input byte).
        literal: bool,
        /// How to search without compiling the whole pattern, if it has
        /// that shape.
        shape: Option<Box<Shape>>,
        /// No match can hold a line break (unless a substituted value
        /// does), and the pattern is compiled for each search: the search
        /// runs on the lines holding its longest text (see `find_in_lines`).
        by_line: bool,
    },
    Eof,
}

/// A parsed pattern.
#[derive(Debug, Clone)]
pub(crate) struct Pattern {
    pub kind: CheckKind,
    /// `CHECK-COUNT-n`: how many consecutive matches are required.
    pub count: usize,
    /// Pattern text after trimming (for reports and fuzzy matching).
    pub text: String,
    /// Whether the pattern defines or uses a variable.
    pub has_vars: bool,
    matcher: Matcher,
}

impl Pattern {
    /// The pattern matching only at the end of the buffer.
    pub fn eof() -> Pattern {
        Pattern {
            kind: CheckKind::Eof,
            count: 1,
            text: String::new(),
            has_vars: false,
            matcher: Matcher::Eof,
        }
    }

    /// Parses `src` (everything after the directive's colon up to the end
    /// of the line, leading whitespace already skipped).
    pub fn parse(
        src: &str,
        kind: CheckKind,
        count: usize,
        prefix: &str,
        set: ParseSettings,
        table: &mut VarTable,
    ) -> Result<Pattern, PatternError> {
        let mut text = src;
        if !(set.strict_whitespace && set.match_full_lines) {
            text = text.trim_end_matches([' ', '\t']);
        }
        let err = |offset: usize, message: String| Err(PatternError { offset, message });
        if text.is_empty() && kind != CheckKind::Empty {
            return err(
                0,
                format!("found empty check string with prefix '{prefix}:'"),
            );
        }
        if !text.is_empty() && kind == CheckKind::Empty {
            return err(
                0,
                format!("found non-empty check string for empty check with prefix '{prefix}:'"),
            );
        }
        let mut pat = Pattern {
            kind,
            count,
            text: text.to_string(),
            has_vars: false,
            matcher: Matcher::Eof,
        };
        if kind == CheckKind::Empty {
            pat.matcher = regex_matcher(
                vec![Piece::Re(r"\n$".into())],
                vec![],
                Flags { ignore_case: false },
                true,
            )
            .map_err(|m| PatternError {
                offset: 0,
                message: m,
            })?;
            return Ok(pat);
        }
        let full_lines = set.match_full_lines && kind != CheckKind::Not;
        let plain = set.literal || text.len() < 2 || (!text.contains("{{") && !text.contains("[["));
        if !full_lines && plain && !set.ignore_case {
            pat.matcher = Matcher::Fixed(text.to_string());
            return Ok(pat);
        }
        let mut pieces = Vec::new();
        let mut defs: Vec<Def> = Vec::new();
        if full_lines {
            pieces.push(Piece::Re(
                if set.strict_whitespace { "^" } else { "^ *" }.into(),
            ));
        }
        if plain {
            pieces.push(Piece::Lit(text.to_string()));
        } else {
            pat.has_vars = parse_blocks(text, set, table, &mut pieces, &mut defs)?;
        }
        if full_lines {
            pieces.push(Piece::Re(
                if set.strict_whitespace { "$" } else { " *$" }.into(),
            ));
        }
        pat.matcher =
            regex_matcher(pieces, defs, Flags::of(set), false).map_err(|m| PatternError {
                offset: 0,
                message: format!("invalid regex: {m}"),
            })?;
        Ok(pat)
    }

    /// The text a literal pattern searches for, as is (no regex, no
    /// variable, case-sensitive): its matches are exactly the occurrences
    /// of that text, all of one length.
    pub fn literal(&self) -> Option<&str> {
        match &self.matcher {
            Matcher::Fixed(s) => Some(s),
            _ => None,
        }
    }

    #[cfg(test)]
    fn pieces(&self) -> Vec<Piece> {
        match &self.matcher {
            Matcher::Regex { pieces, .. } => pieces.clone(),
            _ => vec![],
        }
    }

    /// The uses of variables (and expressions) defined on earlier lines,
    /// as written, with the value each has in `vars` as LLVM's notes show
    /// it (a string regex-escaped, a number in its format); uses without
    /// a value are left out.
    pub fn substitutions(&self, vars: &Vars) -> Vec<(String, String)> {
        let Matcher::Regex { pieces, .. } = &self.matcher else {
            return Vec::new();
        };
        pieces
            .iter()
            .filter_map(|p| match p {
                Piece::Subst(name) => vars
                    .strs
                    .get(name)
                    .map(|v| (name.clone(), llvm_regex_escape(v))),
                Piece::Num { expr, format, src } => expr
                    .eval(&vars.nums)
                    .ok()
                    .and_then(|v| format.print(&v))
                    .map(|v| (src.clone(), v)),
                _ => None,
            })
            .collect()
    }

    /// Searches `buf` for the leftmost match, substituting the values of
    /// variables from `vars`.
    pub fn find(&self, buf: &str, vars: &Vars) -> Result<Option<Found>, MatchError> {
        match &self.matcher {
            Matcher::Eof => Ok(Some(Found {
                start: buf.len(),
                end: buf.len(),
                defs: vec![],
                spans: vec![],
            })),
            Matcher::Fixed(s) => Ok(find_text(s, buf)),
            Matcher::Regex {
                pieces,
                compiled,
                defs,
                has_backrefs,
                flags,
                skip_first,
                literal,
                shape,
                by_line,
            } => {
                let owned;
                let subst = substitute(pieces, vars)?;
                if *literal {
                    return Ok(find_text(&literal_text(pieces, &subst), buf));
                }
                if let Some(shape) = shape
                    && let Some(found) = shape.find(pieces, &subst, defs, *flags, buf)?
                {
                    return Ok(found);
                }
                if compiled.is_none()
                    && !*has_backrefs
                    && !flags.ignore_case
                    && !*skip_first
                    && !needs_backtracking(pieces)
                {
                    let k = pieces
                        .iter()
                        .take_while(|p| {
                            matches!(p, Piece::Lit(_) | Piece::Subst(_) | Piece::Num { .. })
                        })
                        .count();
                    let lead = literal_text(&pieces[..k], &subst[..k]);
                    if lead.len() >= LONG_LEAD {
                        let src = regex_source(&pieces[k..], &subst[k..], BackrefAs::Def);
                        let rest = build(&src, *flags).map_err(MatchError::InvalidRegex)?;
                        return find_after_lead(&lead, &rest, defs, buf);
                    }
                }
                if *by_line && let Some(found) = find_in_lines(pieces, &subst, defs, *flags, buf)? {
                    return Ok(found);
                }
                let engine = match compiled {
                    Some(re) => re,
                    None => {
                        let backtrack = needs_backtracking(pieces);
                        let src = regex_source(pieces, &subst, BackrefAs::new(backtrack));
                        if src.is_empty() {
                            // Like LLVM, a pattern that substitution leaves
                            // empty matches nothing.
                            return Ok(None);
                        }
                        owned = Engine::build(&src, *flags, backtrack)
                            .map_err(MatchError::InvalidRegex)?;
                        &owned
                    }
                };
                let found = match engine {
                    Engine::Backtrack(re) => find_backtracking(re, defs, buf)?,
                    Engine::Linear(re) if *has_backrefs => {
                        find_with_backrefs(re, pieces, &subst, defs, *flags, buf)?
                    }
                    // No captures to resolve: the lazy DFA finds the match.
                    Engine::Linear(re) if defs.is_empty() => re.find(buf).map(|m| Found {
                        start: m.start(),
                        end: m.end(),
                        defs: vec![],
                        spans: vec![],
                    }),
                    Engine::Linear(re) => match re.captures(buf) {
                        None => None,
                        Some(c) => {
                            let m = c.get(0).expect("group 0");
                            Some(found_with(
                                m.start(),
                                m.end(),
                                |d| c.name(&d.group).map(|m| m.as_str()),
                                defs,
                                buf,
                            )?)
                        }
                    },
                };
                Ok(found.map(|mut f| {
                    if *skip_first {
                        f.start = (f.start + 1).min(f.end);
                    }
                    f
                }))
            }
        }
    }
}

/// LLVM's `Regex::escape`: a backslash before each of `()^$|*+?.[]\{}`.
pub(crate) fn llvm_regex_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if "()^$|*+?.[]\\{}".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The pieces of pattern text that holds `{{...}}` or `[[...]]` blocks,
/// appended to `pieces`, and the variables it defines, to `defs`; returns
/// whether it defines or uses a string variable.
fn parse_blocks(
    text: &str,
    set: ParseSettings,
    table: &mut VarTable,
    pieces: &mut Vec<Piece>,
    defs: &mut Vec<Def>,
) -> Result<bool, PatternError> {
    let err = |offset: usize, message: String| Err(PatternError { offset, message });
    let mut def_res: HashMap<String, (String, String, usize)> = HashMap::new();
    // LLVM's capture-group count (1-based), for its back-reference limit.
    let mut paren = 1usize;
    let mut has_vars = false;
    let mut pos = 0;
    while pos < text.len() {
        let rest = &text[pos..];
        if let Some(inner) = rest.strip_prefix("{{") {
            let Some(end) = inner.find("}}") else {
                return err(pos, "found start of regex string with no end '}}'".into());
            };
            if end == 0 {
                return err(pos + 2, "invalid regex: empty (sub)expression".into());
            }
            let re = translate_ere(&inner[..end]).map_err(|m| PatternError {
                offset: pos + 2,
                message: format!("invalid regex: {m}"),
            })?;
            // Refuse an oversized regex here, at its own block.
            check_block_size(&re, Flags::of(set)).map_err(|m| PatternError {
                offset: pos + 2,
                message: format!("invalid regex: {m}"),
            })?;
            let open = block_groups(&inner[..end], &mut paren, pieces);
            // A block that is literal text (`{{\[}}`, `{{ }}`) is searched
            // as text; it has no group (no `|`).
            match unescape_literal(&re) {
                Some(text) if open == "(?:" => push_lit(pieces, &text),
                _ => pieces.push(Piece::Re(format!("{open}{re})"))),
            }
            pos += 2 + end + 2;
            continue;
        }
        if rest.starts_with("[[[") {
            // `[[[V]]]`: a literal `[` before the block (LLVM's reading).
            push_lit(pieces, "[");
            pos += 1;
            continue;
        }
        if let Some(inner) = rest.strip_prefix("[[") {
            let end = find_var_end(inner).map_err(|(o, m)| PatternError {
                // LLVM points at the `[[` of a block it finds no end for.
                offset: if m == NO_BLOCK_END { pos } else { pos + 2 + o },
                message: m,
            })?;
            let block = &inner[..end];
            let block_off = pos + 2;
            pos += 2 + end + 2;
            let mut b = Block {
                set,
                pieces,
                defs,
                def_res: &mut def_res,
                paren: &mut paren,
                table,
            };
            if b.parse(block, block_off)? {
                has_vars = true;
            }
            continue;
        }
        // Literal text up to the next `{{` or `[[` (not at offset 0;
        // the first character may be several bytes long).
        let first = rest.chars().next().map_or(1, char::len_utf8);
        let next = literal_end(rest, first);
        push_lit(pieces, &rest[..next]);
        pos += next;
    }
    Ok(has_vars)
}

/// Appends literal text, to the literal piece before it if there is one.
fn push_lit(pieces: &mut Vec<Piece>, text: &str) {
    match pieces.last_mut() {
        Some(Piece::Lit(t)) => t.push_str(text),
        _ => pieces.push(Piece::Lit(text.to_string())),
    }
}

/// The text a regex source (in the `regex` crate's syntax, as
/// `translate_ere` writes it) matches when it matches only that text:
/// ASCII letters, digits, spaces and punctuation, special characters
/// escaped with a backslash. `None` for anything else.
fn unescape_literal(re: &str) -> Option<String> {
    let mut out = String::with_capacity(re.len());
    let mut chars = re.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                // `\<` and `\>` are word boundaries.
                Some(e) if e.is_ascii_punctuation() && e != '<' && e != '>' => out.push(e),
                _ => return None,
            },
            '.' | '^' | '$' | '*' | '+' | '?' | '(' | ')' | '[' | ']' | '{' | '}' | '|' => {
                return None;
            }
            c if c == ' ' || c.is_ascii_graphic() => out.push(c),
            _ => return None,
        }
    }
    (!out.is_empty()).then_some(out)
}

/// The end of the literal text at the start of `rest`: the first `{{` or
/// `[[` at or after `from`, else the end. Scans each byte once, so parsing
/// a pattern stays linear however many blocks it holds.
fn literal_end(rest: &str, from: usize) -> usize {
    let b = rest.as_bytes();
    let mut i = from;
    while i + 1 < b.len() {
        #[cfg(test)]
        SCANNED.with(|c| c.set(c.get() + 1));
        if (b[i] == b'{' || b[i] == b'[') && b[i + 1] == b[i] {
            return i;
        }
        i += 1;
    }
    b.len()
}

#[cfg(test)]
thread_local! {
    /// Bytes examined by `literal_end` on this thread (tests check linearity).
    static SCANNED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// Bytes of regex source compiled on this thread (tests check that
    /// substituted literal text is not searched with a regex).
    static BUILT: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The most bytes a pattern's substituted values may add up to, so that a
/// large value used many times is refused instead of exhausting memory.
pub(crate) const MAX_SUBSTITUTED: usize = 4 << 20;

/// The match `start..end` of a pattern defining `defs`, whose groups'
/// texts `group` gives (slices of `buf`).
fn found_with<'h>(
    start: usize,
    end: usize,
    group: impl Fn(&Def) -> Option<&'h str>,
    defs: &[Def],
    buf: &str,
) -> Result<Found, MatchError> {
    let mut values = Vec::with_capacity(defs.len());
    let mut spans = Vec::with_capacity(defs.len());
    for d in defs {
        let text = group(d);
        spans.push(text.map(|t| {
            let at = t.as_ptr() as usize - buf.as_ptr() as usize;
            at..at + t.len()
        }));
        let text = text.unwrap_or("");
        let value = match d.num {
            None => Value::Str(text.to_string()),
            Some(f) => Value::Num(
                f.parse(text)
                    .ok_or_else(|| MatchError::Unrepresentable(text.to_string()))?,
            ),
        };
        values.push((d.name.clone(), value));
    }
    Ok(Found {
        start,
        end,
        defs: values,
        spans,
    })
}

/// The literal text of every substituted piece (string variables and
/// numeric expressions), by piece index.
fn substitute(pieces: &[Piece], vars: &Vars) -> Result<Vec<Option<String>>, MatchError> {
    let mut missing = Vec::new();
    let mut overflow = false;
    let mut out = Vec::with_capacity(pieces.len());
    let mut total = 0usize;
    for p in pieces {
        out.push(match p {
            Piece::Subst(v) => match vars.strs.get(v) {
                Some(s) => {
                    total = total.saturating_add(s.len());
                    if total > MAX_SUBSTITUTED {
                        return Err(MatchError::TooLarge);
                    }
                    Some(s.clone())
                }
                None => {
                    if !missing.contains(v) {
                        missing.push(v.clone());
                    }
                    None
                }
            },
            Piece::Num { expr, format, .. } => match expr.eval(&vars.nums) {
                Ok(v) => {
                    let s = format.print(&v);
                    overflow |= s.is_none();
                    total = total.saturating_add(s.as_ref().map_or(0, String::len));
                    if total > MAX_SUBSTITUTED {
                        return Err(MatchError::TooLarge);
                    }
                    s
                }
                Err(EvalError::Undefined(names)) => {
                    for n in names {
                        if !missing.contains(&n) {
                            missing.push(n);
                        }
                    }
                    None
                }
                Err(EvalError::Overflow) => {
                    overflow = true;
                    None
                }
            },
            _ => None,
        });
    }
    if !missing.is_empty() {
        return Err(MatchError::UndefinedVariables(missing));
    }
    if overflow {
        return Err(MatchError::Overflow);
    }
    Ok(out)
}

/// Leftmost match of a pattern whose same-line variable uses act as
/// back-references: candidates come from a regex where each use is replaced
/// by its definition's regex, then are verified with the captured values.
fn find_with_backrefs(
    superset: &Regex,
    pieces: &[Piece],
    subst: &[Option<String>],
    defs: &[Def],
    flags: Flags,
    buf: &str,
) -> Result<Option<Found>, MatchError> {
    let mut from = 0;
    while from <= buf.len() {
        let Some(c) = superset.captures_at(buf, from) else {
            return Ok(None);
        };
        let start = c.get(0).expect("group 0").start();
        let concrete = format!(
            r"\A(?:{})",
            regex_source(pieces, subst, BackrefAs::Captured(&c))
        );
        let re = build(&concrete, flags).map_err(MatchError::InvalidRegex)?;
        if let Some(cc) = re.captures(&buf[start..]) {
            let consistent = pieces.iter().all(|p| match p {
                Piece::Backref { group, .. } => {
                    cc.name(group).map(|m| m.as_str()) == c.name(group).map(|m| m.as_str())
                }
                _ => true,
            });
            if consistent {
                let m = cc.get(0).expect("group 0");
                return Ok(Some(found_with(
                    start,
                    start + m.end(),
                    |d| cc.name(&d.group).map(|m| m.as_str()),
                    defs,
                    buf,
                )?));
            }
        }
        from = start + buf[start..].chars().next().map_or(1, char::len_utf8);
    }
    Ok(None)
}

/// The text of a pattern made only of literal text and substitutions.
fn literal_text(pieces: &[Piece], subst: &[Option<String>]) -> String {
    let mut s = String::new();
    for (i, p) in pieces.iter().enumerate() {
        match p {
            Piece::Lit(t) => s.push_str(t),
            _ => s.push_str(subst.get(i).and_then(Option::as_deref).unwrap_or("")),
        }
    }
    s
}

/// The length from which the literal text a pattern starts with (after
/// substitution) is searched for as text, the rest of the pattern with a
/// regex after it.
const LONG_LEAD: usize = 256;

/// The leftmost match of `lead` (literal text) followed by `rest`: the
/// first occurrence of `lead` where a match of `rest` starts right after
/// it (the preferred one there, as the whole regex would take). A search
/// for `rest` that finds its leftmost match further on skips the
/// occurrences of `lead` that end before it, so each part of the input is
/// searched about once.
fn find_after_lead(
    lead: &str,
    rest: &Regex,
    defs: &[Def],
    buf: &str,
) -> Result<Option<Found>, MatchError> {
    let mut from = 0;
    while let Some(i) = buf[from..].find(lead) {
        let p = from + i;
        let q = p + lead.len();
        let Some(c) = rest.captures_at(buf, q) else {
            return Ok(None);
        };
        let m = c.get(0).expect("group 0");
        if m.start() == q {
            return Ok(Some(found_with(
                p,
                m.end(),
                |d| c.name(&d.group).map(|m| m.as_str()),
                defs,
                buf,
            )?));
        }
        // No match of `rest` starts between `q` and `m.start()`.
        from = (p + 1).max(m.start() - lead.len());
        while !buf.is_char_boundary(from) {
            from += 1;
        }
    }
    Ok(None)
}

/// The first occurrence of `text` in `buf`; like LLVM, an empty pattern
/// (all its substitutions empty) matches nothing.
fn find_text(text: &str, buf: &str) -> Option<Found> {
    if text.is_empty() {
        return None;
    }
    memchr::memmem::find(buf.as_bytes(), text.as_bytes()).map(|p| Found {
        start: p,
        end: p + text.len(),
        defs: vec![],
        spans: vec![],
    })
}

/// What a same-line variable use (`Piece::Backref`) becomes in regex source.
#[derive(Clone, Copy)]
enum BackrefAs<'c, 'h> {
    /// Its definition's regex: the linear engine's superset of the pattern.
    Def,
    /// The text captured by a superset match.
    Captured(&'c Captures<'h>),
    /// A back-reference to its definition's group number (the backtracking
    /// engine; definitions' groups are then numbered, not named).
    Named,
}

impl BackrefAs<'_, '_> {
    fn new(backtrack: bool) -> Self {
        if backtrack { Self::Named } else { Self::Def }
    }
}

/// Leftmost match of a pattern with `\N` back-references, by the
/// backtracking engine (its budget exhausted is an error, never a hang).
fn find_backtracking(
    re: &fancy_regex::Regex,
    defs: &[Def],
    buf: &str,
) -> Result<Option<Found>, MatchError> {
    let c = match re.captures(buf) {
        Ok(None) => return Ok(None),
        Ok(Some(c)) => c,
        Err(fancy_regex::Error::RuntimeError(_)) => return Err(MatchError::BacktrackLimit),
        Err(e) => return Err(MatchError::InvalidRegex(e.to_string())),
    };
    let m = c.get(0).expect("group 0");
    Ok(Some(found_with(
        m.start(),
        m.end(),
        |d| c.get(d.number).map(|m| m.as_str()),
        defs,
        buf,
    )?))
}

/// Assembles regex source from `pieces`; back-references become what
/// `backref` says.
fn regex_source(pieces: &[Piece], subst: &[Option<String>], backref: BackrefAs<'_, '_>) -> String {
    let mut s = String::new();
    for (i, p) in pieces.iter().enumerate() {
        match p {
            Piece::Re(r) => s.push_str(r),
            Piece::Lit(t) => s.push_str(&regex::escape(t)),
            Piece::Subst(_) | Piece::Num { .. } => {
                s.push_str(&regex::escape(
                    subst.get(i).and_then(Option::as_deref).unwrap_or(""),
                ));
            }
            Piece::Open(group) => match backref {
                BackrefAs::Named => s.push('('),
                _ => {
                    s.push_str("(?P<");
                    s.push_str(group);
                    s.push('>');
                }
            },
            Piece::Backref {
                group,
                def_re,
                number,
            } => match backref {
                BackrefAs::Def => {
                    s.push_str("(?:");
                    s.push_str(def_re);
                    s.push(')');
                }
                BackrefAs::Captured(c) => {
                    s.push_str(&regex::escape(c.name(group).map_or("", |m| m.as_str())));
                }
                BackrefAs::Named => {
                    s.push('\\');
                    s.push_str(&number.to_string());
                }
            },
        }
    }
    s
}

/// The compiled size allowed for one `{{...}}` regex. Matching costs time
/// in proportion to the compiled size for each input byte once the lazy DFA
/// gives up, so this bounds the cost per byte (`{{(a{100}){100}x}}` is
/// refused; see docs/filecheck-compatibility.md).
const BLOCK_SIZE_LIMIT: usize = 256 << 10;

/// The compiled size allowed for a whole pattern after substitution, whose
/// substituted values are literal text.
const REGEX_SIZE_LIMIT: usize = 64 << 20;

/// The backtracking steps one search of a regex with `\N` back-references
/// may take before it fails with an error (fancy-regex's own default).
pub(crate) const BACKTRACK_LIMIT: usize = 1_000_000;

/// A compiled pattern: the linear-time `regex` crate, or for a pattern
/// with `\N` back-references (which it cannot express) fancy-regex's
/// backtracking engine, bounded by `BACKTRACK_LIMIT`.
#[derive(Debug, Clone)]
enum Engine {
    Linear(Regex),
    Backtrack(fancy_regex::Regex),
}

impl Engine {
    fn build(src: &str, flags: Flags, backtrack: bool) -> Result<Engine, String> {
        if backtrack {
            build_backtracking(src, flags.ignore_case, REGEX_SIZE_LIMIT).map(Engine::Backtrack)
        } else {
            build(src, flags).map(Engine::Linear)
        }
    }
}

/// Whether the regex source `re` (translated by `translate_ere`) holds a
/// numbered back-reference `\1`..`\9`.
fn has_numbered_backref(re: &str) -> bool {
    let b = re.as_bytes();
    let mut i = 0;
    while i + 1 < b.len() {
        if b[i] == b'\\' {
            if matches!(b[i + 1], b'1'..=b'9') {
                return true;
            }
            i += 1;
        }
        i += 1;
    }
    false
}

fn needs_backtracking(pieces: &[Piece]) -> bool {
    pieces
        .iter()
        .any(|p| matches!(p, Piece::Re(r) if has_numbered_backref(r)))
}

fn build_backtracking(
    src: &str,
    ignore_case: bool,
    limit: usize,
) -> Result<fancy_regex::Regex, String> {
    let flags = if ignore_case { "(?mi)" } else { "(?m)" };
    fancy_regex::RegexBuilder::new(&format!("{flags}{src}"))
        .backtrack_limit(BACKTRACK_LIMIT)
        .delegate_size_limit(limit)
        .build()
        .map_err(|e| e.to_string())
}

/// Refuses a `{{...}}` block whose compiled form passes `BLOCK_SIZE_LIMIT`.
/// Without a counted repetition a short block cannot come near it (the
/// translated POSIX classes are ASCII): its syntax is checked, nothing
/// compiled.
fn check_block_size(re: &str, flags: Flags) -> Result<(), String> {
    let src = format!("(?:{re})");
    if !re.contains('{') && re.len() < 4096 && !has_numbered_backref(re) {
        return crate::re::validate(&src, flags);
    }
    if has_numbered_backref(re) {
        build_backtracking(&src, flags.ignore_case, BLOCK_SIZE_LIMIT).map(drop)
    } else {
        build_limited(&src, flags, BLOCK_SIZE_LIMIT).map(drop)
    }
}

fn build(src: &str, flags: Flags) -> Result<Regex, String> {
    build_limited(src, flags, REGEX_SIZE_LIMIT)
}

fn build_limited(src: &str, flags: Flags, limit: usize) -> Result<Regex, String> {
    #[cfg(test)]
    BUILT.with(|c| c.set(c.get() + src.len()));
    Regex::build(src, flags, limit)
}

fn regex_matcher(
    pieces: Vec<Piece>,
    defs: Vec<Def>,
    flags: Flags,
    skip_first: bool,
) -> Result<Matcher, String> {
    let has_subst = pieces
        .iter()
        .any(|p| matches!(p, Piece::Subst(_) | Piece::Num { .. }));
    let has_backrefs = pieces.iter().any(|p| matches!(p, Piece::Backref { .. }));
    let literal = !flags.ignore_case
        && !skip_first
        && pieces
            .iter()
            .all(|p| matches!(p, Piece::Lit(_) | Piece::Subst(_) | Piece::Num { .. }));
    // Validate even when compilation must wait for variable values (then
    // the syntax is enough: the size is checked when it is compiled).
    let backtrack = needs_backtracking(&pieces);
    let shape = (!flags.ignore_case && !skip_first && !has_backrefs && !backtrack && !literal)
        .then(|| Shape::of(&pieces))
        .flatten()
        .map(Box::new);
    let src = regex_source(&pieces, &[], BackrefAs::new(backtrack));
    let mut multi_line = true;
    let compiled = if (has_subst || shape.is_some() || literal) && !backtrack {
        multi_line = check_skeleton(&pieces, &src, flags)?;
        None
    } else {
        Some(Engine::build(&src, flags, backtrack)?)
    };
    let by_line =
        has_subst && !multi_line && !literal && !has_backrefs && !flags.ignore_case && !skip_first;
    Ok(Matcher::Regex {
        compiled: compiled.filter(|_| !has_subst),
        pieces,
        defs,
        has_backrefs,
        flags,
        skip_first,
        literal,
        shape,
        by_line,
    })
}

/// Checks the syntax of a pattern's regex source `src` (made of
/// `pieces`, no values) as `re::may_match_newline` does, and answers as it
/// does. Its text is parsed in a skeleton: each literal piece one
/// character (escaped text is valid wherever it stands, holds no line
/// break, and one character leaves the regex's structure as it was), so
/// that lines differing only in their text share one parse. The source
/// itself is parsed only when the skeleton is refused, for its own error.
fn check_skeleton(pieces: &[Piece], src: &str, flags: Flags) -> Result<bool, String> {
    let mut skeleton = String::new();
    for p in pieces {
        match p {
            Piece::Lit(t) if t.is_ascii() => skeleton.push('x'),
            _ => skeleton.push_str(&regex_source(std::slice::from_ref(p), &[], BackrefAs::Def)),
        }
    }
    crate::re::may_match_newline(&skeleton, flags)
        .or_else(|_| crate::re::may_match_newline(src, flags))
}

/// The length from which a line is searched by the lazy DFA in
/// `find_in_lines`.
const LONG_LINE: usize = 4096;

/// The leftmost match of a pattern no match of which holds a line break,
/// found line by line: only a line holding the pattern's longest run of
/// literal text and substituted values (the substituted run is in every
/// match) is searched, by the whole regex compiled for short searches.
/// Each line is looked at once. `None` when the substituted values hold
/// a line break or the longest run is empty: the whole regex decides then.
fn find_in_lines(
    pieces: &[Piece],
    subst: &[Option<String>],
    defs: &[Def],
    flags: Flags,
    buf: &str,
) -> Result<Option<Option<Found>>, MatchError> {
    if subst.iter().flatten().any(|v| v.contains('\n')) {
        return Ok(None);
    }
    let mut longest = String::new();
    let mut i = 0;
    while i < pieces.len() {
        let n = pieces[i..]
            .iter()
            .take_while(|p| matches!(p, Piece::Lit(_) | Piece::Subst(_) | Piece::Num { .. }))
            .count();
        if n == 0 {
            i += 1;
            continue;
        }
        let run = literal_text(&pieces[i..i + n], &subst[i..i + n]);
        if run.len() > longest.len() {
            longest = run;
        }
        i += n;
    }
    if longest.is_empty() {
        return Ok(None);
    }
    let src = regex_source(pieces, subst, BackrefAs::Def);
    #[cfg(test)]
    BUILT.with(|c| c.set(c.get() + src.len()));
    let re =
        Regex::build_for_lines(&src, flags, REGEX_SIZE_LIMIT).map_err(MatchError::InvalidRegex)?;
    // A long line is searched with the lazy DFA, as the whole input would
    // be: the engines for short searches cost more per byte.
    let mut long_re = None;
    let b = buf.as_bytes();
    let finder = memchr::memmem::Finder::new(longest.as_bytes());
    // `from` is the start of a line (or of `buf`).
    let mut from = 0;
    while let Some(k) = finder.find(&b[from..]) {
        let at = from + k;
        let start = memchr::memrchr(b'\n', &b[from..at]).map_or(from, |j| from + j + 1);
        let end = memchr::memchr(b'\n', &b[at..]).map_or(b.len(), |j| at + j);
        let re = if end - start > LONG_LINE {
            match &long_re {
                Some(re) => re,
                None => long_re.insert(build(&src, flags).map_err(MatchError::InvalidRegex)?),
            }
        } else {
            &re
        };
        if let Some(c) = re.captures_in(buf, start..end) {
            let m = c.get(0).expect("group 0");
            return found_with(
                m.start(),
                m.end(),
                |d| c.name(&d.group).map(|m| m.as_str()),
                defs,
                buf,
            )
            .map(|f| Some(Some(f)));
        }
        if end >= b.len() {
            break;
        }
        from = end + 1;
    }
    Ok(Some(None))
}

/// A pattern searched without compiling it whole, LLVM-fast on the
/// shapes most check lines have: a run of literal text and
/// substitutions (known at search time) found with `memmem`, and the
/// regex after it (no substitutions, so compiled once per source and run)
/// matched anchored right after the run; optionally before the run,
/// literal text and a greedy `.*` or `.+` (`%[[V:.*]] = op %[[A]]`,
/// `[[V:%.+]] = op [[A]]`, MLIR's idioms).
/// The match is the one the whole regex gives (leftmost, then greedy).
#[derive(Debug, Clone)]
struct Shape {
    dot_star: Option<DotStar>,
    /// The pieces of the run.
    run: std::ops::Range<usize>,
    /// The regex source after the run (empty: nothing after it).
    rest: String,
}

/// `LIT.*` or `LIT.+` before the run of a [`Shape`].
#[derive(Debug, Clone)]
struct DotStar {
    /// The literal text (not empty).
    lit: String,
    /// The definition's group when the `.*` is in one (`[[V:.*]]`,
    /// `[[V:%.*]]`; else `{{.*}}`), and where in `lit` the group starts.
    group: Option<(String, usize)>,
    /// The fewest bytes the `.*` (0) or `.+` (1) takes.
    min: usize,
}

impl Shape {
    fn of(pieces: &[Piece]) -> Option<Shape> {
        let mut i = 0;
        let mut dot_star = None;
        // `LIT.*)` or `LIT.+)`: the literal and the fewest bytes.
        let tail = |r: &str| {
            let (inner, min) = match (r.strip_suffix(".*)"), r.strip_suffix(".+)")) {
                (Some(inner), _) => (inner, 0),
                (_, Some(inner)) => (inner, 1),
                _ => return None,
            };
            if inner.is_empty() {
                return Some((String::new(), min));
            }
            unescape_literal(inner).map(|t| (t, min))
        };
        let (outer, k) = match pieces.first() {
            Some(Piece::Lit(lit)) => (lit.as_str(), 1),
            _ => ("", 0),
        };
        match (pieces.get(k), pieces.get(k + 1)) {
            (Some(Piece::Re(r)), _) => {
                if let Some((inner, min)) = r.strip_prefix("(?:").and_then(tail) {
                    dot_star = Some(DotStar {
                        lit: format!("{outer}{inner}"),
                        group: None,
                        min,
                    });
                    i = k + 1;
                }
            }
            (Some(Piece::Open(g)), Some(Piece::Re(r))) => {
                if let Some((inner, min)) = tail(r) {
                    dot_star = Some(DotStar {
                        lit: format!("{outer}{inner}"),
                        group: Some((g.clone(), outer.len())),
                        min,
                    });
                    i = k + 2;
                }
            }
            _ => {}
        }
        // (A line break in the literal would end the line it searches.)
        if dot_star
            .as_ref()
            .is_some_and(|d| d.lit.is_empty() || d.lit.contains('\n'))
        {
            return None;
        }
        let run_len = pieces[i..]
            .iter()
            .take_while(|p| matches!(p, Piece::Lit(_) | Piece::Subst(_) | Piece::Num { .. }))
            .count();
        let after = &pieces[i + run_len..];
        let plain_rest = after
            .iter()
            .all(|p| matches!(p, Piece::Lit(_) | Piece::Re(_) | Piece::Open(_)));
        (run_len > 0 && plain_rest).then(|| Shape {
            dot_star,
            run: i..i + run_len,
            rest: regex_source(after, &[], BackrefAs::Def),
        })
    }

    /// The leftmost match in `buf`; `None` when the substituted run does
    /// not suit the shape (empty, or a newline after a `.*`): the whole
    /// regex decides then.
    fn find(
        &self,
        pieces: &[Piece],
        subst: &[Option<String>],
        defs: &[Def],
        flags: Flags,
        buf: &str,
    ) -> Result<Option<Option<Found>>, MatchError> {
        let run = literal_text(&pieces[self.run.clone()], &subst[self.run.clone()]);
        if run.is_empty() || (self.dot_star.is_some() && run.contains('\n')) {
            return Ok(None);
        }
        let rest = if self.rest.is_empty() {
            None
        } else {
            Some(build(&self.rest, flags).map_err(MatchError::InvalidRegex)?)
        };
        let b = buf.as_bytes();
        let finder = memchr::memmem::Finder::new(run.as_bytes());
        let rfinder = memchr::memmem::FinderRev::new(run.as_bytes());
        // The match of the rest right after the run at `o`: its captures
        // and end.
        let after = |o: usize| -> Option<(Option<Captures<'_>>, usize)> {
            let e = o + run.len();
            match &rest {
                None => Some((None, e)),
                Some(re) => re.captures_anchored_at(buf, e).map(|c| {
                    let end = c.get(0).expect("group 0").end();
                    (Some(c), end)
                }),
            }
        };
        let rest_group = |c: &Option<Captures<'_>>, d: &Def| {
            c.as_ref()
                .and_then(|c| c.name(&d.group))
                .map(|m| (m.start(), m.end()))
        };
        let Some(DotStar { lit, group, min }) = &self.dot_star else {
            let mut from = 0;
            while let Some(i) = finder.find(&b[from..]) {
                let o = from + i;
                if let Some((c, end)) = after(o) {
                    let span = |d: &Def| rest_group(&c, d).map(|(s, e)| &buf[s..e]);
                    return found_with(o, end, span, defs, buf).map(|f| Some(Some(f)));
                }
                from = o + 1;
            }
            return Ok(Some(None));
        };
        let mut from = 0;
        while let Some(i) = memchr::memmem::find(&b[from..], lit.as_bytes()) {
            let s = from + i;
            let g = s + lit.len();
            let line_end = memchr::memchr(b'\n', &b[g..]).map_or(b.len(), |k| g + k);
            // Greedy: the last occurrence of the run on the line first,
            // `min` bytes after the literal or more.
            let lo = g + min;
            let mut hi = line_end;
            while let Some(k) = rfinder.rfind(b.get(lo..hi).unwrap_or_default()) {
                let o = lo + k;
                if let Some((c, end)) = after(o) {
                    let span = |d: &Def| match group {
                        Some((name, at)) if *name == d.group => Some(&buf[s + at..o]),
                        _ => rest_group(&c, d).map(|(s, e)| &buf[s..e]),
                    };
                    return found_with(s, end, span, defs, buf).map(|f| Some(Some(f)));
                }
                hi = o + run.len() - 1;
            }
            // A later start on this line has fewer places for the run.
            if line_end >= b.len() {
                break;
            }
            from = line_end + 1;
        }
        Ok(Some(None))
    }
}

/// The state for parsing the `[[...]]` blocks of one pattern.
struct Block<'p> {
    set: ParseSettings,
    pieces: &'p mut Vec<Piece>,
    defs: &'p mut Vec<Def>,
    /// String variables defined earlier in this pattern: group, regex.
    def_res: &'p mut HashMap<String, (String, String, usize)>,
    /// The number LLVM gives the next capture group.
    paren: &'p mut usize,
    table: &'p mut VarTable,
}

impl Block<'_> {
    /// Parses the inside of a `[[...]]` block at `off` in the pattern;
    /// returns whether it is a string-variable block.
    fn parse(&mut self, block: &str, off: usize) -> Result<bool, PatternError> {
        let set = self.set;
        let err = |o: usize, message: &str| {
            Err(PatternError {
                offset: off + o,
                message: message.to_string(),
            })
        };
        if let Some(num) = block.strip_prefix('#') {
            self.numeric(num, off + 1)?;
            return Ok(false);
        }
        let colon = block.find(':');
        let name_part = &block[..colon.unwrap_or(block.len())];
        if let Some(ws) = name_part.find([' ', '\t']) {
            return err(ws, "unexpected whitespace");
        }
        let bytes = block.as_bytes();
        let pseudo = bytes.first() == Some(&b'@');
        let mut i = usize::from(pseudo || bytes.first() == Some(&b'$'));
        match block {
            "" => return err(0, "empty variable name"),
            // After the sigil, as LLVM.
            "@" => return err(1, "empty pseudo variable name"),
            "$" => return err(1, "empty global variable name"),
            _ => {}
        }
        if !bytes
            .get(i)
            .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
        {
            return err(i.min(block.len()), "invalid variable name");
        }
        while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
            i += 1;
        }
        let name = &block[..i];
        let rest = &block[i..];
        if colon.is_some() {
            let Some(def) = rest.strip_prefix(':').filter(|_| !pseudo) else {
                return err(0, "invalid name in string variable definition");
            };
            if let Some(VarKind::Num(_)) = self.table.get(name) {
                return err(
                    0,
                    &format!("numeric variable with name '{name}' already exists"),
                );
            }
            let re = translate_ere(def).map_err(|m| PatternError {
                offset: off + i + 1,
                message: format!("invalid regex: {m}"),
            })?;
            let group = format!("pfv{}", self.defs.len());
            let number = *self.paren;
            let (inner, never) = scan_groups(def, number + 1, Some(number));
            self.pieces.push(Piece::Open(group.clone()));
            self.pieces.push(Piece::Re(format!("{re})")));
            if never {
                self.pieces.insert(0, Piece::Re(NEVER.into()));
            }
            self.defs.push(Def {
                name: name.to_string(),
                group: group.clone(),
                number,
                num: None,
            });
            *self.paren += 1 + inner;
            self.def_res.insert(name.to_string(), (group, re, number));
            self.table.insert(name.to_string(), VarKind::Str);
            return Ok(true);
        }
        if pseudo {
            return match line_expr(block, set.line) {
                Some(line) => {
                    // As an expression when it is one (LLVM names it in its
                    // notes: `with "@LINE" equal to "3"`); its value is a
                    // constant all the same.
                    let parsed = numeric::parse_block(block, set.line, self.table, &[]);
                    match parsed {
                        Ok(b) if b.def.is_none() && b.expr.is_some() => {
                            self.pieces.push(Piece::Num {
                                expr: b.expr.expect("checked"),
                                format: b.format,
                                src: block.to_string(),
                            });
                        }
                        _ => self.pieces.push(Piece::Lit(line.to_string())),
                    }
                    Ok(false)
                }
                // LLVM reads any other `[[@...]]` as a legacy numeric
                // expression and reports what its parser finds wrong.
                None => match legacy_line_error(block) {
                    Some((o, message)) => err(o, &message),
                    None => match numeric::parse_block(block, set.line, self.table, &[]) {
                        Err((o, message)) => err(o, &message),
                        Ok(_) => err(0, &format!("invalid pseudo variable '{name}'")),
                    },
                },
            };
        }
        if !rest.is_empty() {
            return err(0, "invalid name in string variable use");
        }
        match self.def_res.get(name) {
            // LLVM back-references with `\N`, one digit.
            Some((_, _, number)) if *number > 9 => {
                return err(0, "Can't back-reference more than 9 variables");
            }
            Some((group, re, number)) => self.pieces.push(Piece::Backref {
                group: group.clone(),
                def_re: re.clone(),
                number: *number,
            }),
            None => self.pieces.push(Piece::Subst(name.to_string())),
        }
        Ok(true)
    }

    /// A numeric block `[[#...]]`; `text` is after the `#`, at `off`.
    fn numeric(&mut self, text: &str, off: usize) -> Result<(), PatternError> {
        let same_line: Vec<String> = self
            .defs
            .iter()
            .filter(|d| d.num.is_some())
            .map(|d| d.name.clone())
            .collect();
        let b = numeric::parse_block(text, self.set.line, self.table, &same_line).map_err(
            |(o, message)| PatternError {
                offset: off + o,
                message,
            },
        )?;
        let value = |expr: Option<Expr>, format: Format| match expr {
            Some(expr) => Piece::Num {
                expr,
                format,
                src: text.to_string(),
            },
            None => Piece::Re(format.wildcard()),
        };
        let Some(name) = b.def else {
            self.pieces.push(value(b.expr, b.format));
            return Ok(());
        };
        let at = text.find(name.as_str()).unwrap_or(0);
        match self.table.get(&name) {
            Some(VarKind::Str) => {
                return Err(PatternError {
                    offset: off + at,
                    message: format!("string variable with name '{name}' already exists"),
                });
            }
            Some(VarKind::Num(Some(f))) if *f != b.format => {
                // At the `:` after the name, where LLVM's parser stands.
                let colon = text[at..].find(':').map_or(at, |c| at + c);
                return Err(PatternError {
                    offset: off + colon,
                    message: "format different from previous variable definition".into(),
                });
            }
            _ => {}
        }
        let group = format!("pfv{}", self.defs.len());
        let number = *self.paren;
        *self.paren += 1;
        self.pieces.push(Piece::Open(group.clone()));
        self.pieces.push(value(b.expr, b.format));
        self.pieces.push(Piece::Re(")".into()));
        self.defs.push(Def {
            name: name.clone(),
            group,
            number,
            num: Some(b.format),
        });
        self.table.insert(name, VarKind::Num(Some(b.format)));
        Ok(())
    }
}

/// A regex that never matches: put first in a pattern with a back-reference
/// to a group still open where it stands, which LLVM's engine never matches
/// (`{{(a)\1|b}}` matches neither `aa` nor `b` in LLVM 14 and 19).
const NEVER: &str = "(?!)";

/// Counts a `{{...}}` block's groups into `paren` as LLVM numbers them:
/// LLVM 15 and later make the block a group only when it holds a `|`.
/// Returns how to open the block.
fn block_groups(ere: &str, paren: &mut usize, pieces: &mut Vec<Piece>) -> &'static str {
    let alternation = ere.contains('|');
    let first = *paren + usize::from(alternation);
    let (groups, never) = scan_groups(ere, first, alternation.then_some(*paren));
    if never {
        pieces.insert(0, Piece::Re(NEVER.into()));
    }
    *paren = first + groups;
    if alternation { "(" } else { "(?:" }
}

/// The capture groups a POSIX extended regex opens (its `(`s outside
/// bracket expressions and escapes), and whether one of its back-references
/// names a group still open there. Its groups are numbered from `first` in
/// the line; `enclosing` is the (open) group LLVM wraps it in, if any.
fn scan_groups(ere: &str, first: usize, enclosing: Option<usize>) -> (usize, bool) {
    let b = ere.as_bytes();
    let (mut i, mut n) = (0, 0);
    let mut open: Vec<usize> = Vec::new();
    let mut never = false;
    while i < b.len() {
        match b[i] {
            b'\\' => {
                if let Some(d @ b'1'..=b'9') = b.get(i + 1) {
                    let g = usize::from(d - b'0');
                    never |= Some(g) == enclosing || open.contains(&g);
                }
                i += 1;
            }
            b'(' => {
                open.push(first + n);
                n += 1;
            }
            b')' => {
                open.pop();
            }
            b'[' => {
                // Skip to the closing `]` (a `]` first in the list is literal).
                i += 1;
                if b.get(i) == Some(&b'^') {
                    i += 1;
                }
                if b.get(i) == Some(&b']') {
                    i += 1;
                }
                while i < b.len() && b[i] != b']' {
                    if b[i] == b'[' && matches!(b.get(i + 1), Some(b':' | b'.' | b'=')) {
                        let kind = b[i + 1];
                        i += 2;
                        while i + 1 < b.len() && !(b[i] == kind && b[i + 1] == b']') {
                            i += 1;
                        }
                        i += 1;
                    }
                    i += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    (n, never)
}

/// `@LINE`, `@LINE+N`, `@LINE-N` evaluated at `line`.
/// What LLVM reports for a legacy `[[@LINE...]]` expression that is not
/// `@LINE`, `@LINE+N` or `@LINE-N`: the offset in `expr` and the message;
/// `None` when it does not start with `@LINE` (its own parser decides).
fn legacy_line_error(expr: &str) -> Option<(usize, String)> {
    let rest = expr.strip_prefix("@LINE")?;
    let at = |r: &str| expr.len() - r.len();
    let rest = rest.trim_start();
    let op = rest.chars().next()?;
    if op != '+' && op != '-' {
        return Some((at(rest), format!("unsupported operation '{op}'")));
    }
    let operand = rest[1..].trim_start();
    let digits = operand.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return Some((at(operand), "invalid operand format".into()));
    }
    let tail = operand[digits..].trim_start();
    (!tail.is_empty()).then(|| {
        (
            at(tail),
            format!("unexpected characters at end of expression '{tail}'"),
        )
    })
}

fn line_expr(expr: &str, line: usize) -> Option<i64> {
    let rest = expr.strip_prefix("@LINE")?;
    let line = i64::try_from(line).ok()?;
    if rest.is_empty() {
        return Some(line);
    }
    let (sign, digits) = match rest.as_bytes()[0] {
        b'+' => (1, &rest[1..]),
        b'-' => (-1, &rest[1..]),
        _ => return None,
    };
    let n: i64 = digits.parse().ok()?;
    Some(line + sign * n)
}

/// Finds the `]]` closing a `[[` block, skipping nested brackets and
/// backslash escapes (LLVM's rule). Errors carry an offset in `s`.
fn find_var_end(s: &str) -> Result<usize, (usize, String)> {
    let b = s.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < b.len() {
        if depth == 0 && b[i..].starts_with(b"]]") {
            return Ok(i);
        }
        match b[i] {
            b'\\' => {
                i += 2;
                continue;
            }
            b'[' => depth += 1,
            b']' => {
                if depth == 0 {
                    return Err((i, "missing closing \"]\" for regex variable".into()));
                }
                depth -= 1;
            }
            _ => {}
        }
        i += 1;
    }
    Err((0, NO_BLOCK_END.into()))
}

/// LLVM's error for a `[[` with no `]]`.
const NO_BLOCK_END: &str = "Invalid substitution block, no ]] found";

const POSIX_CLASSES: [&str; 12] = [
    "alnum", "alpha", "blank", "cntrl", "digit", "graph", "lower", "print", "punct", "space",
    "upper", "xdigit",
];

/// Translates a POSIX extended regex (LLVM's dialect) to `regex` syntax.
///
/// Over bytes, as LLVM's regcomp: each byte is one `char` (U+0000 to
/// U+00FF) here, a non-ASCII one written `\xHH` (see `push_byte`). A
/// regex with back-references goes to the backtracking engine, which
/// matches characters: it keeps its characters as they are.
pub(crate) fn translate_ere(src: &str) -> Result<String, String> {
    let bytes: Vec<char> = src.bytes().map(char::from).collect();
    let out = translate_chars(&bytes)?;
    if src.is_ascii() || !has_numbered_backref(&out) {
        return Ok(out);
    }
    let chars: Vec<char> = src.chars().collect();
    translate_chars(&chars)
}

fn translate_chars(c: &[char]) -> Result<String, String> {
    let mut out = String::new();
    let mut i = 0;
    // Whether the previous element can take a repetition operator.
    let mut atom = false;
    let mut groups = Groups::default();
    let bad_rpt = || Err("repetition-operator operand invalid".to_string());
    while i < c.len() {
        let ch = c[i];
        match ch {
            '\\' => {
                out.push_str(&escaped(c.get(i + 1).copied(), groups.closed)?);
                i += 2;
                atom = true;
                continue;
            }
            '[' => {
                let (class, end) = translate_bracket(c, i)?;
                out.push_str(&class);
                i = end;
                atom = true;
                continue;
            }
            '{' if c.get(i + 1).is_some_and(char::is_ascii_digit) => {
                if !atom {
                    return bad_rpt();
                }
                let Some(close) = c[i..].iter().position(|&x| x == '}') else {
                    return Err("braces not balanced".into());
                };
                let body: String = c[i + 1..i + close].iter().collect();
                let ok = match body.split_once(',') {
                    None => body.chars().all(|x| x.is_ascii_digit()),
                    Some((a, b)) => {
                        a.chars().all(|x| x.is_ascii_digit())
                            && b.chars().all(|x| x.is_ascii_digit())
                            && (b.is_empty() || a.parse::<u64>().ok() <= b.parse::<u64>().ok())
                    }
                };
                if !ok {
                    return Err("invalid repetition count(s)".into());
                }
                out.push('{');
                out.push_str(&body);
                out.push('}');
                i += close + 1;
                atom = false;
                if c.get(i)
                    .is_some_and(|&x| matches!(x, '*' | '+' | '?' | '{'))
                {
                    return bad_rpt();
                }
                continue;
            }
            '{' | '}' => {
                out.push('\\');
                out.push(ch);
                atom = true;
            }
            '*' | '+' | '?' => {
                if !atom {
                    return bad_rpt();
                }
                out.push(ch);
                atom = false;
                if c.get(i + 1).is_some_and(|&x| matches!(x, '*' | '+' | '?'))
                    || (c.get(i + 1) == Some(&'{')
                        && c.get(i + 2).is_some_and(char::is_ascii_digit))
                {
                    return bad_rpt();
                }
            }
            '(' => {
                if c.get(i + 1) == Some(&')') {
                    return Err("empty (sub)expression".into());
                }
                groups.open();
                out.push('(');
                atom = false;
            }
            ')' => {
                groups.close()?;
                out.push(')');
                atom = true;
            }
            '|' => {
                if i == 0 || c.get(i + 1).is_none_or(|&x| x == '|' || x == ')') || c[i - 1] == '(' {
                    return Err("empty (sub)expression".into());
                }
                out.push('|');
                atom = false;
            }
            '^' => {
                out.push('^');
                atom = false;
            }
            '.' | '$' => {
                out.push(ch);
                atom = true;
            }
            _ => {
                push_byte(&mut out, ch);
                atom = true;
            }
        }
        i += 1;
    }
    if !groups.open.is_empty() {
        return Err("parentheses not balanced".into());
    }
    Ok(out)
}

/// The groups of one regex while translating it.
#[derive(Default)]
struct Groups {
    opened: u32,
    /// The groups open here, innermost last.
    open: Vec<u32>,
    /// The groups closed so far (bit N for group N): a back-reference `\N`
    /// must name one of them, as LLVM's regcomp checks each `{{...}}` alone.
    closed: u32,
}

impl Groups {
    fn open(&mut self) {
        self.opened += 1;
        self.open.push(self.opened);
    }

    fn close(&mut self) -> Result<(), String> {
        let g = self.open.pop().ok_or("parentheses not balanced")?;
        if g < 32 {
            self.closed |= 1 << g;
        }
        Ok(())
    }
}

/// The translation of `\` followed by `next`: that character, literally,
/// or a back-reference `\1`..`\9`, which must name one of the `closed`
/// groups before it (bit N for group N); the pattern's groups give it its meaning (LLVM's
/// numbering of the whole line: see `Pattern::parse`).
fn escaped(next: Option<char>, closed: u32) -> Result<String, String> {
    let Some(next) = next else {
        return Err("trailing backslash (\\)".into());
    };
    match next.to_digit(10) {
        Some(0) | None => {}
        Some(n) if closed & (1 << n) == 0 => {
            return Err("invalid backreference number".into());
        }
        Some(_) => return Ok(format!("\\{next}")),
    }
    let mut out = String::new();
    push_byte(&mut out, next);
    Ok(out)
}

/// Translates the bracket expression starting at `c[start] == '['`;
/// returns the class and the index after its `]`.
fn translate_bracket(c: &[char], start: usize) -> Result<(String, usize), String> {
    let unbalanced = || Err("brackets ([ ]) not balanced".to_string());
    let mut i = start + 1;
    let negated = c.get(i) == Some(&'^');
    if negated {
        i += 1;
    }
    let mut out = String::from("[");
    if negated {
        out.push_str("^\\n");
    }
    let first = i;
    loop {
        let Some(&ch) = c.get(i) else {
            return unbalanced();
        };
        if ch == ']' && i != first {
            out.push(']');
            return Ok((out, i + 1));
        }
        if ch == '[' && matches!(c.get(i + 1), Some(':' | '.' | '=')) {
            let kind = c[i + 1];
            let body_start = i + 2;
            let mut j = body_start;
            while j + 1 < c.len() && !(c[j] == kind && c[j + 1] == ']') {
                j += 1;
            }
            if j + 1 >= c.len() {
                return unbalanced();
            }
            let body: String = c[body_start..j].iter().collect();
            if kind == ':' {
                if !POSIX_CLASSES.contains(&body.as_str()) {
                    return Err("invalid character class".into());
                }
                out.push_str(&format!("[:{body}:]"));
            } else {
                let mut chars = body.chars();
                match (chars.next(), chars.next()) {
                    (Some(x), None) => push_class_char(&mut out, x),
                    _ => return Err("invalid collating element".into()),
                }
            }
            i = j + 2;
            continue;
        }
        let is_range = ch == '-' && i != first && c.get(i + 1).is_some_and(|&x| x != ']');
        if is_range {
            out.push('-');
        } else {
            push_class_char(&mut out, ch);
        }
        i += 1;
    }
}

fn push_class_char(out: &mut String, ch: char) {
    if matches!(ch, '\\' | '[' | ']' | '&' | '~' | '^' | '-') {
        out.push('\\');
        out.push(ch);
    } else {
        push_byte(out, ch);
    }
}

/// One byte of a translated regex (`ch` is U+0000 to U+00FF): an ASCII
/// one escaped as needed, any other as `\xHH`, which the byte-wise
/// engine reads as that byte. (A character above U+00FF, from a regex
/// translated by characters, is kept.)
fn push_byte(out: &mut String, ch: char) {
    if ch.is_ascii() || u32::from(ch) > 0xFF {
        let mut buf = [0; 4];
        out.push_str(&regex::escape(ch.encode_utf8(&mut buf)));
    } else {
        let _ = write!(out, "\\x{:02X}", u32::from(ch));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set() -> ParseSettings {
        ParseSettings {
            strict_whitespace: false,
            match_full_lines: false,
            ignore_case: false,
            literal: false,
            line: 7,
        }
    }

    fn find(p: &str, buf: &str) -> Option<(usize, usize)> {
        let pat =
            Pattern::parse(p, CheckKind::Plain, 1, "CHECK", set(), &mut VarTable::new()).unwrap();
        pat.find(buf, &Vars::default())
            .unwrap()
            .map(|f| (f.start, f.end))
    }

    #[test]
    fn literal_text_is_scanned_once() {
        // 5,000 uses separated by text: each literal piece used to be
        // searched for `{{` to the end of the pattern (quadratic).
        let text = "[[X]] ".repeat(5000);
        SCANNED.with(|c| c.set(0));
        let pat = Pattern::parse(
            &text,
            CheckKind::Plain,
            1,
            "CHECK",
            set(),
            &mut VarTable::new(),
        )
        .unwrap();
        let scanned = SCANNED.with(|c| c.get());
        assert!(scanned <= text.len(), "{scanned} bytes scanned");
        let vars = Vars {
            strs: HashMap::from([("X".to_string(), "ab".to_string())]),
            ..Vars::default()
        };
        let input = "ab ".repeat(5000);
        BUILT.with(|c| c.set(0));
        assert_eq!(
            pat.find(&input, &vars).unwrap().map(|f| (f.start, f.end)),
            Some((0, input.len() - 1))
        );
        // Searched for as text: a regex of the 15,000-byte literal cost
        // time in proportion to its length for each input byte.
        assert_eq!(BUILT.with(|c| c.get()), 0);
        assert_eq!(pat.find(&input[1..], &vars).unwrap(), None);
    }

    #[test]
    fn a_long_substituted_lead_is_found_as_text() {
        let lead = "é".repeat(200);
        let vars = Vars {
            strs: HashMap::from([("X".to_string(), lead.clone())]),
            ..Vars::default()
        };
        let parse = |p: &str| {
            Pattern::parse(p, CheckKind::Plain, 1, "CHECK", set(), &mut VarTable::new()).unwrap()
        };
        let find = |p: &Pattern, buf: &str| {
            BUILT.with(|c| c.set(0));
            let f = p.find(buf, &vars).unwrap();
            // Only the regex after the lead was compiled.
            assert!(BUILT.with(|c| c.get()) < 40, "{}", BUILT.with(|c| c.get()));
            f.map(|f| (f.start, f.end, f.defs))
        };
        let n = lead.len();
        // The first lead is followed by no number; the rest's match further
        // on skips to the lead that ends where it starts.
        let buf = format!("{lead}a{lead}{lead}42 ");
        let p = parse("[[X]]{{[0-9]+}}");
        assert_eq!(find(&p, &buf), Some((n + 1 + n, 3 * n + 3, vec![])));
        assert_eq!(find(&p, &format!("{lead}a{lead}")), None);
        // A definition after the lead, and a line-start anchor that sees
        // the text before it.
        let p = parse("[[X]] [[Y:[a-z]+]]");
        assert_eq!(
            find(&p, &format!("{lead} 1 {lead} ab")),
            Some((
                n + 3,
                2 * n + 6,
                vec![("Y".into(), Value::Str("ab".into()))]
            ))
        );
        assert_eq!(find(&parse("[[X]]{{^a}}"), &format!("{lead}a\n")), None);
        assert_eq!(
            find(&parse("[[X]]{{$}}"), &format!("{lead}é{lead}\n")),
            Some((n + 2, 2 * n + 2, vec![]))
        );
    }

    #[test]
    fn substituted_literals_are_found_as_text() {
        let vars = Vars {
            strs: HashMap::from([
                ("X".to_string(), "a.b".to_string()),
                ("E".to_string(), String::new()),
            ]),
            nums: HashMap::from([("N".to_string(), 41.into())]),
        };
        let parse = |p: &str| {
            Pattern::parse(p, CheckKind::Plain, 1, "CHECK", set(), &mut VarTable::new()).unwrap()
        };
        let found = |p: &Pattern, buf: &str| {
            BUILT.with(|c| c.set(0));
            let f = p.find(buf, &vars).unwrap().map(|f| (f.start, f.end));
            (f, BUILT.with(|c| c.get()) > 0)
        };
        // Literal text, string and numeric substitutions: no regex.
        let p = parse("[[[X]]] = [[#N+1]]");
        assert_eq!(found(&p, "axb [a.b] = 42"), (Some((4, 14)), false));
        assert_eq!(found(&p, "[axb] = 42"), (None, false));
        // An empty substitution alone matches nothing (as LLVM).
        assert_eq!(found(&parse("[[E]]"), "anything"), (None, false));
        // A regex block, a definition or ignore-case: the regex engine.
        assert_eq!(found(&parse("[[X]]{{.}}"), "a.bc"), (Some((0, 4)), true));
        assert_eq!(
            found(&parse("[[X]] [[Y:.]]"), "a.b c"),
            (Some((0, 5)), true)
        );
        let p = Pattern::parse(
            "[[X]]",
            CheckKind::Plain,
            1,
            "CHECK",
            ParseSettings {
                ignore_case: true,
                ..set()
            },
            &mut VarTable::new(),
        )
        .unwrap();
        assert_eq!(found(&p, "A.B"), (Some((0, 3)), true));
    }

    /// Values of the variables the shape and line-search tests use: text
    /// with a regex character, an empty value, a line break, a number.
    fn sample_vars() -> Vars {
        Vars {
            strs: HashMap::from([
                ("A".to_string(), "a1".to_string()),
                ("B".to_string(), "b.2".to_string()),
                ("E".to_string(), String::new()),
                ("N".to_string(), "x\ny".to_string()),
            ]),
            nums: HashMap::from([("K".to_string(), 7.into())]),
        }
    }

    /// The shapes searched without compiling the whole pattern find what
    /// the whole regex finds: the same match and the same captures.
    #[test]
    fn shapes_match_as_the_whole_regex() {
        let vars = sample_vars();
        let patterns = [
            "%[[V:.*]] = op %[[A]], %[[B]] : i32",
            "%{{.*}} = op %[[A]]",
            "%[[V:.*]] = op %[[A]]{{.*}} : [[T:[a-z0-9]+]]",
            "op %[[A]] {{[0-9]+}} [[W:[a-z]+]]{{$}}",
            "[[#K]] [[A]]{{ *}}",
            "%[[V:.*]] = [[E]]",
            "%[[V:.*]]:[[N]]",
            "[[A]]{{^x}}",
            "x[[A]]{{b?}}",
            "%[[V:.*]] = op",
            "q{{.*}}r{{.*}}",
            "%[[V:.+]] = op %[[A]], %[[B]] : i32",
            "%{{.+}} = op %[[A]]",
            "%[[V:.+]] = op %[[A]]{{.*}} : [[T:[a-z0-9]+]]",
            "%[[V:.+]]= [[E]]",
            "%[[V:.+]]op %[[A]]",
            "[[V:%.+]] = op %[[A]]",
            "[[V:%.*]] = op %[[A]], [[W:%[a-z]+]]",
            "x[[V:%v.*]]op %[[A]]",
            "%{{v.+}} = op %[[A]]",
            "%[[V:.*]] = op %[[A]]{{\\[}}%[[B]]] : i32",
        ];
        let inputs = [
            "%v = op %a1, %b.2 : i32\n",
            "%v = op %a1, %b.2 : i64\n%w = op %a1, %b.2 : i32\n",
            "%v = op %a1 = op %a1, %b.2 : i32 = op %a1, %b.2 : i32\n",
            "%x %y = op %a1 zz : f32\n%q = op %a1 : i8\n",
            "op %a1 12 abc\nop %a1 3 de\n",
            "7 a1   7 a1\n",
            "% = \n%v = x\n",
            "%v:x\ny\n",
            "a1x\na1\nx",
            "xa1b xa1 x\n",
            "%a = op\n",
            "qar qbr\n",
            "none\n",
            "%= op %a1\n% = op %a1\n",
            "%op %a1 %xop %a1\n",
            "%\u{e9} = op %a1, %b.2 : i32\n",
            "x%v = op %a1\n%v = op %a1[%b.2] : i32\n",
            "%vv = op %a1, %w\n",
        ];
        for p in patterns {
            let pat = Pattern::parse(p, CheckKind::Plain, 1, "CHECK", set(), &mut VarTable::new())
                .unwrap();
            let mut whole = pat.clone();
            let Matcher::Regex { shape, .. } = &mut whole.matcher else {
                panic!("{p}: not a regex");
            };
            assert!(shape.take().is_some(), "{p}: no shape");
            for input in inputs {
                for from in [0, 1, 3] {
                    let buf = &input[from.min(input.len())..];
                    BUILT.with(|c| c.set(0));
                    let fast = pat.find(buf, &vars);
                    let built = BUILT.with(|c| c.get());
                    BUILT.with(|c| c.set(0));
                    let slow = whole.find(buf, &vars);
                    let whole_built = BUILT.with(|c| c.get());
                    assert_eq!(
                        fast.as_ref()
                            .map(|f| f.as_ref().map(|f| (f.start, f.end, &f.defs, &f.spans))),
                        slow.as_ref()
                            .map(|f| f.as_ref().map(|f| (f.start, f.end, &f.defs, &f.spans))),
                        "{p} on {buf:?}"
                    );
                    // At most the part after the run is compiled (the
                    // whole regex decides when the run is empty, or holds
                    // a newline after a `.*`).
                    let fallback = p.ends_with("[[E]]") || p.ends_with("[[N]]");
                    assert!(
                        built == 0 || built < whole_built || fallback,
                        "{p} on {buf:?}: {built} bytes compiled"
                    );
                }
            }
        }
    }

    /// Patterns with substitutions and no shape, searched line by line,
    /// give what the whole regex gives.
    #[test]
    fn line_searches_match_as_the_whole_regex() {
        let vars = sample_vars();
        // (pattern, searched by line)
        let patterns = [
            ("%[[V:.*]] = op {{.*}}[%[[A]], %[[B]]], %{{.*}} : i32", true),
            ("for %[[I:.*]] = %[[A]] to {{.*}} step %[[B]] {", true),
            (
                "[[W:%[0-9a-z]+]] = op %{{.*}}, %[[A]] : [[T:i[0-9]+]]",
                true,
            ),
            ("{{^}}%[[A]]{{.*$}}", true),
            ("{{x?}}[[#K]]{{ }}[[A]]", true),
            ("{{a*}}[[E]]{{b?}}", true),
            ("{{a*}}[[N]]{{.}}", true),
            ("{{a?}}[[A]]{{[[:space:]]}}b", false),
            ("{{x?}}[[A]]{{[^x]}}b", true),
        ];
        let inputs = [
            "%v = op %q[%a1, %b.2], %w : i32\n",
            "%v = op %q[%a1, %b.2], %w : i64\n%u = op %r[%a1, %b.2], %z : i32\n",
            "for %i = %a1 to %n step %b.2 {\nfor %j = %a1 to %m step %b.2 {\n",
            "%x = op %y, %a1 : i8 %z = op %y, %a1 : i16\n",
            "q%a1 r\n%a1 s\n",
            "7 a1\n7  a1\nx7 a1 7 a1\n",
            "aab\nx\nyz\n",
            "a1\nb a1 b\n",
            "none\n",
            "",
        ];
        // Lines longer than LONG_LINE, searched by the lazy DFA.
        let long = format!(
            "x\n{}%v = op %q[%a1, %b.2], %w : i32 for %i = %a1 to %n step %b.2 {{\n",
            "%u = op %a1, %b.2 ".repeat(LONG_LINE / 10)
        );
        let inputs: Vec<&str> = inputs.iter().copied().chain([long.as_str()]).collect();
        for (p, by_line) in patterns {
            let pat = Pattern::parse(p, CheckKind::Plain, 1, "CHECK", set(), &mut VarTable::new())
                .unwrap();
            let mut whole = pat.clone();
            let Matcher::Regex {
                by_line: b, shape, ..
            } = &mut whole.matcher
            else {
                panic!("{p}: not a regex");
            };
            assert!(shape.is_none(), "{p}: a shape");
            assert_eq!(*b, by_line, "{p}");
            *b = false;
            for &input in &inputs {
                for from in [0, 1, 3] {
                    let buf = &input[from.min(input.len())..];
                    let fast = pat.find(buf, &vars);
                    let slow = whole.find(buf, &vars);
                    assert_eq!(
                        fast.as_ref()
                            .map(|f| f.as_ref().map(|f| (f.start, f.end, &f.defs, &f.spans))),
                        slow.as_ref()
                            .map(|f| f.as_ref().map(|f| (f.start, f.end, &f.defs, &f.spans))),
                        "{p} on {buf:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn substituted_size_is_capped() {
        // A quarter of the cap, plus one byte: four uses pass the cap.
        let value = "b".repeat(MAX_SUBSTITUTED / 4 + 1);
        let vars = Vars {
            strs: HashMap::from([("X".to_string(), value.clone())]),
            ..Vars::default()
        };
        let uses = |n: usize| {
            Pattern::parse(
                &"[[X]]".repeat(n),
                CheckKind::Plain,
                1,
                "CHECK",
                set(),
                &mut VarTable::new(),
            )
            .unwrap()
        };
        // Three uses stay under the cap: no size error (the search itself
        // is not run, to keep the test cheap).
        assert!(substitute(&uses(3).pieces(), &vars).is_ok());
        assert_eq!(uses(4).find("b", &vars).err(), Some(MatchError::TooLarge));
    }

    #[test]
    fn regex_size_is_bounded() {
        let parse =
            |p: &str| Pattern::parse(p, CheckKind::Plain, 1, "CHECK", set(), &mut VarTable::new());
        let e = parse("x {{(a{100}){100}x}}").unwrap_err();
        assert_eq!(e.offset, 4);
        assert!(e.message.contains("exceeds size limit"), "{}", e.message);
        assert!(parse("x {{(a{10}){10}x}}").is_ok());
    }

    #[test]
    fn ere_translation() {
        assert_eq!(translate_ere(r"a\d").unwrap(), "ad");
        assert_eq!(translate_ere("a{2}").unwrap(), "a{2}");
        assert_eq!(translate_ere("[^a]").unwrap(), "[^\\na]");
        assert_eq!(translate_ere("[]a-]").unwrap(), "[\\]a\\-]");
        assert_eq!(translate_ere("[[:digit:]]+").unwrap(), "[[:digit:]]+");
        assert_eq!(translate_ere("a{x").unwrap(), "a\\{x");
        assert!(translate_ere("a{2").is_err());
        // `\N` names a group closed before it in the same block (LLVM 14, 19).
        for bad in [r"(a)\2", r"(a\1)", r"\1(a)"] {
            assert_eq!(
                translate_ere(bad).unwrap_err(),
                "invalid backreference number"
            );
        }
        assert!(translate_ere(r"(a)\1").is_ok());
        assert!(translate_ere("*a").is_err());
        assert!(translate_ere("(a").is_err());
        assert!(translate_ere("a+?").is_err());
    }

    #[test]
    fn literal_and_regex_pieces() {
        assert_eq!(find("a.b", "xa.b"), Some((1, 4)));
        assert_eq!(find("┌─ {{.*}}:7", "  ┌─ x:7"), Some((2, 12)));
        assert_eq!(find("a{{[0-9]+}}b", "a12b"), Some((0, 4)));
        assert_eq!(find("{{a|b}}c", "bc"), Some((0, 2)));
        assert_eq!(find("x{{.*}}", "x1\n2"), Some((0, 2)));
        assert_eq!(find("[[@LINE]]:", "7:"), Some((0, 2)));
        assert_eq!(find("[[@LINE+1]]:", "8:"), Some((0, 2)));
        // A block of literal text joins the text around it, searched as
        // text; other blocks stay regexes.
        let pieces = |p: &str| {
            Pattern::parse(p, CheckKind::Plain, 1, "CHECK", set(), &mut VarTable::new())
                .unwrap()
                .pieces()
        };
        assert!(matches!(&pieces("a{{\\[}}b{{ }}c[[X:.*]]")[..],
            [Piece::Lit(t), Piece::Open(_), Piece::Re(_)] if t == "a[b c"));
        assert!(matches!(
            &pieces("a{{b*}}b")[..],
            [Piece::Lit(_), Piece::Re(_), Piece::Lit(_)]
        ));
        assert_eq!(find("a{{\\[}}b{{-}}", "xa[b-"), Some((1, 5)));
        assert_eq!(find("a{{\\[}}b", "a\\[b"), None);
    }

    #[test]
    fn same_line_backreference() {
        let pat = Pattern::parse(
            "[[X:[a-z]+]] = [[X]]",
            CheckKind::Plain,
            1,
            "CHECK",
            set(),
            &mut VarTable::new(),
        )
        .unwrap();
        let f = pat
            .find("ab = a; cd = cd", &Vars::default())
            .unwrap()
            .unwrap();
        assert_eq!((f.start, f.end), (8, 15));
        assert_eq!(
            f.defs,
            vec![("X".to_string(), Value::Str("cd".to_string()))]
        );
    }

    /// `\N` counts the groups of the whole line as LLVM 15+ does: a
    /// definition is one, a block only when it holds `|`; a reference to a
    /// group still open never matches; the backtracking has a budget.
    #[test]
    fn numbered_backreferences() {
        let at = |p: &str, buf: &str| {
            Pattern::parse(p, CheckKind::Plain, 1, "CHECK", set(), &mut VarTable::new())
                .unwrap()
                .find(buf, &Vars::default())
                .map(|f| f.map(|f| (f.start, f.end)))
        };
        assert_eq!(at(r"{{(a)\1}}", "xaa"), Ok(Some((1, 3))));
        assert_eq!(at(r"{{(a)\1}}", "ab"), Ok(None));
        assert_eq!(at(r"[[X:b]]{{(a)\1}}", "baa bab"), Ok(Some((4, 7))));
        assert_eq!(at(r"{{x|y}}{{(c)\1}}", "xcc xcx"), Ok(Some((4, 7))));
        assert_eq!(at(r"[[X:c]]{{(a)(b)\2}}", "cabb caba"), Ok(Some((5, 9))));
        assert_eq!(at(r"{{(a)\1|b}}", "b"), Ok(None));
        assert_eq!(at(r"{{((a)\2)+}}x", "aaaax"), Ok(Some((0, 5))));
        assert_eq!(
            at(r"[[X:[a-z]]] [[X]]{{(q)\1}}", "c cqq c cqc"),
            Ok(Some((6, 11)))
        );
        let mut table = VarTable::new();
        let p = Pattern::parse(
            "{{(a)\\1}}.[[#N:]]",
            CheckKind::Plain,
            1,
            "CHECK",
            set(),
            &mut table,
        )
        .unwrap();
        let f = p.find("aa.5", &Vars::default()).unwrap().unwrap();
        assert_eq!(f.defs.len(), 1);
        assert!(matches!(&f.defs[0], (n, Value::Num(_)) if n == "N"));
        // The definition after a `|` block is group 2: its value is `c`.
        let p = Pattern::parse(
            r"{{a|b}}[[X:c]]{{(d)\1}}",
            CheckKind::Plain,
            1,
            "CHECK",
            set(),
            &mut VarTable::new(),
        )
        .unwrap();
        let f = p.find("acda", &Vars::default()).unwrap().unwrap();
        assert_eq!(f.defs, vec![("X".to_string(), Value::Str("c".to_string()))]);
        let slow = format!("{}c", "a".repeat(64));
        assert_eq!(at(r"{{(a*)*b\1}}", &slow), Err(MatchError::BacktrackLimit));
        assert_eq!(at(r"{{(a*)*b}}", &slow), Ok(None));
    }

    #[test]
    fn substitution_needs_definition() {
        let pat = Pattern::parse(
            "v [[X]]",
            CheckKind::Plain,
            1,
            "CHECK",
            set(),
            &mut VarTable::new(),
        )
        .unwrap();
        assert_eq!(
            pat.find("v 1", &Vars::default()),
            Err(MatchError::UndefinedVariables(vec!["X".into()]))
        );
        let vars = Vars {
            strs: HashMap::from([("X".to_string(), "a.b".to_string())]),
            ..Vars::default()
        };
        assert!(pat.find("v axb", &vars).unwrap().is_none());
        assert!(pat.find("v a.b", &vars).unwrap().is_some());
    }

    #[test]
    fn pattern_errors() {
        let e = |p: &str| {
            Pattern::parse(p, CheckKind::Plain, 1, "CHECK", set(), &mut VarTable::new())
                .unwrap_err()
        };
        assert_eq!(e("a {{b").offset, 2);
        // At the `[[` of an unclosed block, as LLVM.
        assert_eq!(e("a [[X").offset, 2);
        assert_eq!(
            e("a [[X").message,
            "Invalid substitution block, no ]] found"
        );
        assert_eq!(e("{{a{2}}}").message, "invalid regex: braces not balanced");
        assert_eq!(e("{{a{2}}}").offset, 2);
        assert_eq!(e("[[1X]]").message, "invalid variable name");
        // LLVM points at the start of the name, `$` included.
        for use_ in ["a[[X-Y]]", "a[[$X.]]"] {
            let err = e(use_);
            assert_eq!(err.message, "invalid name in string variable use");
            assert_eq!(err.offset, 3);
        }
        assert_eq!(e("a[[]]").message, "empty variable name");
        let defs: String = (0..10).map(|i| format!("[[V{i}:r]] ")).collect();
        assert_eq!(
            e(&format!("{defs}[[V9]]")).message,
            "Can't back-reference more than 9 variables"
        );
        assert!(
            Pattern::parse(
                &format!("{defs}[[V8]]"),
                CheckKind::Plain,
                1,
                "CHECK",
                set(),
                &mut VarTable::new()
            )
            .is_ok()
        );
        // Groups inside regexes count too.
        assert_eq!(scan_groups(r"(a)\(b[(]([[:alpha:]])", 1, None), (2, false));
        assert_eq!(
            e("{{(((((((((a)))))))))}}[[V:x]] [[V]]").message,
            "Can't back-reference more than 9 variables"
        );
        assert_eq!(e("b[[@]]").message, "empty pseudo variable name");
        assert_eq!(e("b[[@]]").offset, 4);
        assert_eq!(e("c[[$]]").message, "empty global variable name");
        assert_eq!(
            e("  ").message,
            "found empty check string with prefix 'CHECK:'"
        );
    }
}
